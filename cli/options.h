// The option-parsing preamble every `strata` command shares.
#pragma once

#include <boost/program_options.hpp>

#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/db.h"

namespace strata::cli {

// Parses `args` into `vm`. A parse error or a missing `required` option prints
// "strata <command>: what" and the usage on stderr (kExitUsage); --help prints the usage on
// stdout (kExitOk). nullopt: the command goes on.
std::optional<int> ParseOptions(const std::string& command, const std::vector<std::string>& args,
                                const boost::program_options::options_description& options,
                                const boost::program_options::positional_options_description& positional,
                                const std::function<void(std::ostream&)>& usage,
                                boost::program_options::variables_map& vm,
                                const std::vector<std::string>& required = {});

// --force-recovery N (innodb_force_recovery's levels, engine/db.h DatabaseOptions) for the
// commands that open a data directory.
inline constexpr const char* kForceRecoveryHelp =
    "innodb_force_recovery: 1-2 no purge; 3-5 no rollback of transactions a crash left active, every change "
    "refused; 6 no redo replay either, nothing written (also opens a directory that crashed with redo disabled)";

inline constexpr const char* kReadOnlyHelp =
    "innodb_read_only: open every file for reading only and write nothing (a snapshot, a backup on a read-only "
    "mount); every change is refused, and a log that needs crash recovery is refused (6 implies this)";

inline constexpr const char* kOpenFilesHelp =
    "innodb_open_files: at most N tablespace and log files open at once, the least recently used closed and "
    "reopened when needed (default: half of ulimit -n)";

// The data directory of --datadir, opened with `options`, --force-recovery, --read-only and (where the
// command has them) --buffer-pool in MiB and --open-files. Null once the error was said on stderr ("strata
// <command>: ..."), with `exit_code` kExitUsage for a level outside 0..6 or a pool of 0 MiB and
// kExitFailure when the engine refused (a pool larger than the machine can give among others).
std::unique_ptr<engine::Database> OpenDataDirectory(const std::string& command,
                                                    const boost::program_options::variables_map& vm,
                                                    engine::DatabaseOptions options, int& exit_code);

// A page or space number: decimal digits only, below 2^32; nullopt for anything else ("-1",
// "1e3", "0x10", "3junk").
std::optional<std::uint32_t> ParseUint32(const std::string& text);

// "128M", "8m", "1G", "65536": bytes; nullopt when the text is not a size.
std::optional<std::size_t> ParseSize(const std::string& text);

}  // namespace strata::cli
