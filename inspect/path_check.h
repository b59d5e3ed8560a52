// What a path handed to the inspector is, found without being caught by it: a FIFO blocks
// open() until a writer comes (forever), a symbolic link loop makes std::filesystem throw, and
// a device or socket is no tablespace. Each is refused by name and the rest go on.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace strata::inspect {

// nullopt: a regular file, a directory, or nothing at all (its reader says "not found");
// else why the path is not read ("a symbolic link loop (Too many levels of symbolic links)").
std::optional<std::string> RefusedPath(const std::filesystem::path& path);

}  // namespace strata::inspect
