// A table definition from the CREATE TABLE statement a user hands over (`inspect rows
// --create-table FILE.sql`): what decodes the rows of a MySQL 5.x or MariaDB .ibd whose server
// dictionary is not at hand. Any SQL file holding the statement works (a schema dump, the
// script that made the table); other statements in it are skipped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::inspect {

// The table `name` ("table" or "database.table", the database as a CREATE TABLE or the USE
// before it names it; the first written exactly so, else the first differing only in case;
// when empty, the first table) of `sql`, laid out as InnoDB stores it:
// the clustered index (PRIMARY KEY, else the first UNIQUE index of NOT NULL columns, else
// DB_ROW_ID), then the secondary indexes in the order InnoDB creates them. `flavor` decides
// what JSON is (MySQL: binary JSON; MariaDB: LONGTEXT). InvalidArgument naming the line for
// SQL that is not a CREATE TABLE this reader understands; NotFound when there is no such table.
ondisk::Result<TableDef> TableFromCreateTable(std::string_view sql, const std::string& name, ondisk::Flavor flavor);

// Roots the clustered index of `t` where InnoDB puts the first index of a file-per-table
// tablespace, page 3, and takes its index id from that page; when page 3 is damaged, the
// smallest index id of the file's pages (the first index made). Corruption when page 3 is an
// index page with neighbours, or no page is an index page. (Secondary indexes stay unplaced:
// which root is whose is the server's dictionary's knowledge.)
ondisk::Status PlaceInFile(TableDef& t, const SpaceFile& file);

}  // namespace strata::inspect
