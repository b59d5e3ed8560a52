// Files in a Strata data directory that its catalog (ondisk/strata_catalog.h) does not list as
// a table's: what a CREATE TABLE a crash interrupted left behind (the catalog lists it in its
// DDL log, or not at all), or the file of a committed DROP that the next open removes. Such a
// file is never read as a table, so its pages are not damage to one.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace strata::inspect {

class OrphanFiles {
 public:
  // Why `file` is an orphan of its data directory, or nullopt: a table's file, not an .ibd,
  // or no readable Strata catalog above it (MySQL and MariaDB directories are not judged).
  std::optional<std::string> Why(const std::filesystem::path& file);

 private:
  struct Known {
    std::set<std::string> tables;   // db/t.ibd of every table
    std::set<std::string> removed;  // files and folders the DDL log says an open removes
  };
  std::optional<Known> Read(const std::filesystem::path& datadir);
  std::map<std::filesystem::path, std::optional<Known>> by_dir_;
};

}  // namespace strata::inspect
