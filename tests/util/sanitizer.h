// Whether the test binary is built with a sanitizer. A few tests whose size is their whole cost
// (tear points, operations) run a smaller size there: ASan and TSan multiply their time by 5-10
// and CI runs every suite under them, while the plain build keeps running the full size.
#pragma once

namespace strata::testing {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kUnderSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kUnderSanitizer = true;
#else
inline constexpr bool kUnderSanitizer = false;
#endif
#else
inline constexpr bool kUnderSanitizer = false;
#endif

}  // namespace strata::testing
