// What a directory holds, decided before anything is written to it: a new data directory, a
// Strata one, or one whose creation never finished. Everything else is refused with what was
// found, so that opening a MariaDB data directory, or a Strata one that lost its ibdata1,
// changes nothing on disk (a missing ibdata1 must never turn into a fresh, empty database
// next to the old tables and over the old redo log).
#pragma once

#include <filesystem>

#include "engine/env.h"

namespace strata::engine {

enum class DataDirKind {
  kNew,                 // missing, empty, or holding only a lock file
  kStrata,              // ibdata1 and a Strata ib_logfile0
  kUnfinishedCreation,  // the creation marker and only files a creation makes
};

// While a data directory is being created this file exists; it is removed last.
inline constexpr const char* kCreationMarker = "strata.creating";

// The files a creation writes (and removes again when it fails).
inline constexpr const char* kCreatedFiles[] = {"ibdata1", "ib_logfile0", "ib_doublewrite", kCreationMarker};

// Reads only (directory entries and the log's header block).
Result<DataDirKind> ClassifyDataDir(Env& env, const std::filesystem::path& dir);

// Removes what a creation made (kCreatedFiles), leaving the directory new again.
Status RemoveCreatedFiles(Env& env, const std::filesystem::path& dir);

}  // namespace strata::engine
