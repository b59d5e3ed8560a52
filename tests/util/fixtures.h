// Locating and loading test data: the MySQL fixtures in ../shared/fixtures (never written
// to) and small golden files under tests/data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace strata::testing {

// ../shared/fixtures beside the checkout, or $STRATA_FIXTURES when set.
std::filesystem::path SharedFixturesDir();
// tests/data in the source tree.
std::filesystem::path TestDataDir();

// Every *.ibd under `dir` (recursive), sorted; fails the calling test when there are none.
std::vector<std::filesystem::path> IbdFilesUnder(const std::filesystem::path& dir);

// Whole file contents; throws std::runtime_error naming the file on failure.
std::vector<std::byte> ReadWholeFile(const std::filesystem::path& path);
// Writes `bytes` as the whole file (a damaged copy of a fixture, say).
void WriteWholeFile(const std::filesystem::path& path, const std::vector<std::byte>& bytes);
// The same as text (a TSV the server printed, a .frm, a SQL script).
std::string ReadText(const std::filesystem::path& path);

// Damage in place, as a disk or a stray write would: `bytes` written over the file at `offset`,
// or the bits of `mask` flipped in the byte there. Throw std::runtime_error naming the file.
void OverwriteAt(const std::filesystem::path& path, std::uint64_t offset, std::string_view bytes);
void FlipBitsAt(const std::filesystem::path& path, std::uint64_t offset, std::uint8_t mask);

}  // namespace strata::testing
