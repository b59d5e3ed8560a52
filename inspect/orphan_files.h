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
#include <vector>

namespace strata::inspect {

class OrphanFiles {
 public:
  // Why `file` is an orphan of its data directory, or nullopt: a table's file, not an .ibd,
  // or no readable Strata catalog above it (MySQL and MariaDB directories are not judged).
  std::optional<std::string> Why(const std::filesystem::path& file);
  // What is wrong when a table's file carries another space id than the catalog gives it
  // (another table's file copied over it); nullopt when they agree or nothing is known.
  std::optional<std::string> WrongSpace(const std::filesystem::path& file, std::uint32_t space_id);
  // The table files the catalog of the Strata data directory `dir` lists that are not there.
  std::vector<std::string> Missing(const std::filesystem::path& dir);

 private:
  struct Known {
    std::map<std::string, std::uint32_t> tables;  // db/t.ibd of every table, and its space id
    std::set<std::string> removed;                // files and folders the DDL log says an open removes
  };
  const Known* For(const std::filesystem::path& datadir);
  std::optional<Known> Read(const std::filesystem::path& datadir);
  std::map<std::filesystem::path, std::optional<Known>> by_dir_;
};

}  // namespace strata::inspect
