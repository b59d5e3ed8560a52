#include "experiments/key_report.h"

#include <fmt/format.h>

#include <map>

#include "inspect/colors.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "inspect/sys_dictionary.h"
#include "viz/chart.h"
#include "viz/map_model.h"
#include "viz/output_file.h"
#include "viz/render.h"

namespace strata::experiments {

using ondisk::Status;

namespace {

// Maps are drawn this wide so that report.html shows them at their own size, not scaled down,
// in a 1,280-px browser window (the body's margins leave 1,248): the maps wrap into rows
// rather than make a strip, and their smallest text stays legible.
constexpr int kMapWidth = 1200;

std::string KeyType(KeyStrategy s) {
  return std::string(KeyColumnType(s)) + (s == KeyStrategy::kAutoinc ? " auto_increment" : "");
}

double MiB(std::uint64_t bytes) { return static_cast<double>(bytes) / (1 << 20); }

// The result of the same engine that serves as 1.0 for the size ratios: auto-increment, else
// sequential int, else none.
const KeyRunResult* Baseline(const std::vector<KeyRunResult>& results, const std::string& engine) {
  for (KeyStrategy s : {KeyStrategy::kAutoinc, KeyStrategy::kSeq}) {
    for (const auto& r : results) {
      if (r.engine == engine && r.strategy == s) return &r;
    }
  }
  return nullptr;
}

const KeyRunResult* Find(const std::vector<KeyRunResult>& results, const std::string& engine, KeyStrategy s) {
  for (const auto& r : results) {
    if (r.engine == engine && r.strategy == s) return &r;
  }
  return nullptr;
}

// A report is a list of blocks, written out once as Markdown and once as HTML.
struct Block {
  enum Kind { kHeading, kParagraph, kTable, kImage } kind;
  std::string text;                            // heading, paragraph, image caption
  std::string path;                            // image file, relative to the report
  std::vector<std::vector<std::string>> rows;  // table: the first row is the header
};

std::vector<std::string> Header(const KeyReport& report) {
  std::string base = "size ratio";
  for (const auto& r : report.results) {
    if (const KeyRunResult* b = Baseline(report.results, r.engine)) base = "pages vs " + ToString(b->strategy);
  }
  return {"strategy",        "engine",     "key",         "insert s",   "rows/s",    "file MiB", base,
          "B-tree pages",    "data pages", "index pages", "leaf pages", "leaf fill", "levels",   "page splits",
          "COUNT(*) cold s", "warm s"};
}

std::vector<std::string> Row(const KeyRunResult& r, const KeyRunResult* base) {
  return {ToString(r.strategy),
          r.engine,
          KeyType(r.strategy),
          fmt::format("{:.2f}", r.insert_seconds),
          viz::Thousands(r.insert_seconds > 0 ? static_cast<std::uint64_t>(r.records / r.insert_seconds) : 0),
          fmt::format("{:.1f}", MiB(r.file_bytes)),
          base && base->data_pages + base->index_pages
              ? fmt::format("{:.2f}x",
                            static_cast<double>(r.data_pages + r.index_pages) / (base->data_pages + base->index_pages))
              : "",
          viz::Thousands(r.data_pages + r.index_pages),
          viz::Thousands(r.data_pages),
          viz::Thousands(r.index_pages),
          viz::Thousands(r.leaf_pages),
          fmt::format("{:.1f}%", 100 * r.avg_leaf_fill),
          viz::Thousands(r.levels),
          r.page_splits ? viz::Thousands(*r.page_splits) : "",
          fmt::format("{:.3f}", r.count_cold_seconds),
          fmt::format("{:.3f}", r.count_warm_seconds)};
}

std::vector<std::vector<std::string>> FigureTable(const KeyReport& report) {
  std::vector<std::vector<std::string>> rows = {Header(report)};
  for (const auto& r : report.results) rows.push_back(Row(r, Baseline(report.results, r.engine)));
  return rows;
}

// What the figures say, in the study's terms, from the figures themselves.
std::vector<std::string> Findings(const KeyReport& report) {
  std::vector<std::string> out;
  for (const std::string engine : {"strata", "mariadb"}) {
    const KeyRunResult* base = Baseline(report.results, engine);
    if (!base) continue;
    for (KeyStrategy s : {KeyStrategy::kUuid, KeyStrategy::kUuidBin, KeyStrategy::kUlid, KeyStrategy::kUuid7}) {
      const KeyRunResult* r = Find(report.results, engine, s);
      if (!r || r == base || base->data_pages + base->index_pages == 0) continue;
      out.push_back(fmt::format(
          "On {}, the {} table takes {:.2f}x the {} table's pages ({} against {}; files of {:.1f} MiB against {:.1f} "
          "MiB); its leaves are {:.1f}% full against {:.1f}%, after {} page splits against {}; COUNT(*) from a cold "
          "cache "
          "took {:.3f} s against {:.3f} s.",
          engine, ToString(s),
          static_cast<double>(r->data_pages + r->index_pages) / (base->data_pages + base->index_pages),
          ToString(base->strategy), viz::Thousands(r->data_pages + r->index_pages),
          viz::Thousands(base->data_pages + base->index_pages), MiB(r->file_bytes), MiB(base->file_bytes),
          100 * r->avg_leaf_fill, 100 * base->avg_leaf_fill, r->page_splits ? viz::Thousands(*r->page_splits) : "n/a",
          base->page_splits ? viz::Thousands(*base->page_splits) : "n/a", r->count_cold_seconds,
          base->count_cold_seconds));
    }
  }
  for (const auto& r : report.results) {
    if (r.engine != "strata") continue;
    const KeyRunResult* m = Find(report.results, "mariadb", r.strategy);
    if (!m) continue;
    // MariaDB's file is the measure; its statistics are shown beside it (they say 1 for a small
    // index whose leaves all sit in its segment's fragment array).
    const std::uint64_t theirs = m->leaf_pages;
    if (!theirs) continue;
    out.push_back(
        fmt::format("{}: Strata's clustered index has {} leaf pages, MariaDB's {} in its file (n_leaf_pages in "
                    "mysql.innodb_index_stats: {}): {:+.1f}%.",
                    ToString(r.strategy), viz::Thousands(r.leaf_pages), viz::Thousands(theirs),
                    m->server_leaf_pages ? viz::Thousands(*m->server_leaf_pages) : "n/a",
                    100.0 * (static_cast<double>(r.leaf_pages) - theirs) / theirs));
  }
  return out;
}

// Why the maps look as they do, with this run's own figures (the leaf fill of the table's
// columns): nothing in it that the table above does not show.
std::string WhyParagraph(const KeyReport& report) {
  const KeyRunResult* base = nullptr;
  const KeyRunResult* random = nullptr;
  std::string engine;
  for (const std::string e : {"strata", "mariadb"}) {  // one engine's figures, Strata's first
    base = Baseline(report.results, e);
    random = Find(report.results, e, KeyStrategy::kUuid);
    engine = e;
    if (base || random) break;
  }
  // Only what this run shows: a sentence for each kind of key that ran, its figures from the
  // table, and the buffer pool named only when a table outgrew it.
  std::string out;
  if (base) {
    out += fmt::format(
        "An ascending key always lands on the last leaf: when it fills, InnoDB splits at the insertion point, the full "
        "page "
        "stays full and the new key starts an empty one, so every leaf but the last ends as full as InnoDB fills a "
        "clustered leaf (it leaves 1/16 free) and is written once, in order ({:.1f}% average leaf fill in the {} table "
        "here, the last, partly filled leaf included). ",
        100 * base->avg_leaf_fill, ToString(base->strategy));
  }
  if (random) {
    out += fmt::format(
        "A random key (UUIDv4) lands anywhere: full pages split in the middle and both halves wait, half empty, for "
        "more "
        "random keys, so leaves settle well below full ({:.1f}% in the uuid table here), the table takes more pages{}, "
        "and every page keeps being dirtied until the end (bright all over the LSN map)",
        100 * random->avg_leaf_fill,
        base && base->data_pages + base->index_pages
            ? fmt::format(" ({:.2f}x the {} table's)",
                          double(random->data_pages + random->index_pages) / (base->data_pages + base->index_pages),
                          ToString(base->strategy))
            : "");
    out += random->file_bytes > report.options.buffer_pool_bytes
               ? "; once the table outgrew the buffer pool, an insert could have to read its leaf from disk first. "
               : "; the whole table fitted in the buffer pool here, so no insert waited for a read. ";
  }
  std::vector<std::string> ordered;
  for (KeyStrategy s : {KeyStrategy::kUlid, KeyStrategy::kUuid7, KeyStrategy::kUuid7Bin, KeyStrategy::kUuid1SwapBin}) {
    if (Find(report.results, engine, s)) ordered.push_back(ToString(s));
  }
  if (!ordered.empty()) {
    std::string names;
    for (std::size_t i = 0; i < ordered.size(); ++i)
      names += (i ? (i + 1 == ordered.size() ? " and " : ", ") : "") + ordered[i];
    out += "Time-ordered keys (" + names +
           " here) grow at one end as ascending ones do, so their leaves fill the same way. ";
  }
  if (random && Find(report.results, engine, KeyStrategy::kUuidBin)) {
    out +=
        "uuid-bin stores the same randomness as binary(16) rather than char(36): its leaves split as randomly, but "
        "more "
        "rows fit in a page. ";
  }
  if (!out.empty()) out.pop_back();
  return out;
}

constexpr const char* kGlossary =
    "data pages: the pages of the clustered index, which holds the rows (SHOW TABLE STATUS's Data_length). index "
    "pages: the pages of the secondary indexes (Index_length); a table keyed by its primary key alone has none. leaf "
    "pages, leaf fill: the clustered index's bottom level, and how much of each page its records use, on average. "
    "B-tree pages: data and index pages together. pages vs: the table's B-tree pages against the ascending table's, "
    "the measure of size that does not depend on how the file grows; file MiB is the file on disk, pre-allocated "
    "extents included. page splits: how "
    "many times a full page was split to make room. levels: the height of the clustered index's B+tree.";

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string ToMarkdown(const std::vector<Block>& blocks) {
  std::string md;
  for (const auto& b : blocks) {
    switch (b.kind) {
      case Block::kHeading:
        md += (md.empty() ? "# " : "## ") + b.text + "\n\n";
        break;
      case Block::kParagraph:
        md += b.text + "\n\n";
        break;
      case Block::kImage:
        md += fmt::format("![{}]({})\n\n*{}*\n\n", b.text, b.path, b.text);
        break;
      case Block::kTable:
        for (std::size_t i = 0; i < b.rows.size(); ++i) {
          md += "| " + fmt::format("{}", fmt::join(b.rows[i], " | ")) + " |\n";
          if (i == 0) {
            md += "|";
            for (std::size_t c = 0; c < b.rows[0].size(); ++c) md += c < 3 ? "---|" : "---:|";
            md += "\n";
          }
        }
        md += "\n";
        break;
    }
  }
  return md;
}

std::string ToHtml(const std::vector<Block>& blocks) {
  std::string html =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Strata key experiment</title>\n<style>\n"
      "body{font-family:sans-serif;max-width:1400px;margin:2em auto;padding:0 1em;color:#222}\n"
      "table{border-collapse:collapse;font-size:14px}td,th{border:1px solid #ccc;padding:3px 8px}\n"
      "td.n{text-align:right}th{background:#f3f3f3}img{max-width:100%;border:1px solid #ddd}\n"
      "figure{margin:1em 0}figcaption{font-style:italic;margin:.3em 0 1.5em}\n</style></head><body>\n";
  bool first = true;
  for (const auto& b : blocks) {
    switch (b.kind) {
      case Block::kHeading:
        html += fmt::format("<h{0}>{1}</h{0}>\n", first ? 1 : 2, Escape(b.text));
        break;
      case Block::kParagraph:
        html += "<p>" + Escape(b.text) + "</p>\n";
        break;
      case Block::kImage:
        html += fmt::format("<figure><img src=\"{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>\n", Escape(b.path),
                            Escape(b.text), Escape(b.text));
        break;
      case Block::kTable:
        html += "<table>\n";
        for (std::size_t i = 0; i < b.rows.size(); ++i) {
          html += "<tr>";
          for (std::size_t c = 0; c < b.rows[i].size(); ++c) {
            html += i == 0 ? "<th>" + Escape(b.rows[i][c]) + "</th>"
                           : (c < 3 ? "<td>" : "<td class=\"n\">") + Escape(b.rows[i][c]) + "</td>";
          }
          html += "</tr>\n";
        }
        html += "</table>\n";
        break;
    }
    first = false;
  }
  return html + "</body></html>\n";
}

Status WriteInsertPlot(const std::filesystem::path& path, const KeyReport& report) {
  viz::LineChart chart;
  chart.title = fmt::format("Cumulative insert time, {} rows, {} per INSERT", viz::Thousands(report.options.rows),
                            viz::Thousands(report.options.batch));
  chart.x_label = "rows inserted";
  chart.y_label = "seconds";
  std::map<KeyStrategy, std::size_t> colour;
  for (const auto& r : report.results) {
    const std::size_t c = colour.emplace(r.strategy, colour.size()).first->second;
    viz::ChartSeries s;
    s.label = ToString(r.strategy) + (r.engine == "strata" ? "" : " (" + r.engine + ")");
    s.color = inspect::CategoryColor(c);
    s.dashed = r.engine != "strata";
    s.points.push_back({0, 0});
    for (const auto& p : r.samples) s.points.push_back({static_cast<double>(p.rows), p.seconds});
    chart.series.push_back(std::move(s));
  }
  auto raster = viz::RenderLineChart(chart);
  if (!raster.ok()) return raster.status();
  return viz::WritePng(*raster, path);
}

// The maps of every table side by side, titled "engine: strategy", MariaDB's next to Strata's.
Status WriteMaps(const std::filesystem::path& dir, const KeyReport& report, std::vector<Block>& blocks,
                 std::vector<std::filesystem::path>* written) {
  std::vector<const KeyRunResult*> order;
  for (KeyStrategy s : report.options.strategies) {
    for (const auto& r : report.results) {
      if (r.strategy == s) order.push_back(&r);
    }
  }
  std::vector<inspect::Finding> findings;
  std::vector<inspect::SpaceFile> files;
  for (const KeyRunResult* r : order) {
    auto opened = inspect::OpenSpaces({r->file}, &findings);
    if (opened.empty())
      return Status::IoError(findings.empty() ? r->file.string() + ": cannot open" : findings.front().ToString());
    files.push_back(std::move(opened.front()));
  }
  inspect::ServerDictionaries servers;
  std::vector<inspect::Dictionary> names;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const bool server = order[i]->engine != "strata";
    names.push_back(inspect::DictionaryFor(files[i], server ? servers.For(files[i]) : nullptr));
  }
  std::vector<viz::MapInput> inputs;
  for (std::size_t i = 0; i < files.size(); ++i) inputs.push_back({&files[i], &names[i]});
  struct MapSpec {
    viz::MapKind kind;
    const char* file;
    const char* caption;
  };
  for (const MapSpec& m :
       {MapSpec{viz::MapKind::kExtents, "extents.png",
                "Extents: every page of each file, a bar as high as the page is full, in its index's colour "
                "(one row = one 1 MiB extent, all files on one scale)"},
        MapSpec{viz::MapKind::kLsn, "lsn.png",
                "LSN age: dark pages were last written early in the load, bright ones late (each file on its own "
                "LSN range); a gradient means pages were filled once, in order; bright everywhere means every "
                "page was still being rewritten at the end"},
        MapSpec{viz::MapKind::kIndex, "index.png", "Index: which index owns each page"}}) {
    viz::ModelOptions mo;
    mo.kind = m.kind;
    mo.title = fmt::format("{} rows per table, {} map", viz::Thousands(report.options.rows), viz::ToString(m.kind));
    viz::MapModel model = viz::BuildModel(inputs, mo);
    for (std::size_t i = 0; i < model.panels.size() && i < order.size(); ++i) {
      model.panels[i].title = order[i]->engine + ": " + ToString(order[i]->strategy);
    }
    viz::RenderOptions ro;
    ro.width = kMapWidth;
    const auto out = dir / m.file;
    if (Status s = viz::WriteMap(model, ro, out); !s.ok()) return s;
    if (written) written->push_back(out);
    blocks.push_back({Block::kImage, m.caption, m.file, {}});
  }
  return Status::Ok();
}

}  // namespace

nlohmann::json ToJson(const KeyReport& report) {
  const auto& o = report.options;
  nlohmann::json results = nlohmann::json::array();
  for (const auto& r : report.results) {
    nlohmann::json samples = nlohmann::json::array();
    for (const auto& p : r.samples) samples.push_back({{"rows", p.rows}, {"seconds", p.seconds}});
    results.push_back(
        {{"engine", r.engine},
         {"strategy", ToString(r.strategy)},
         {"key_type", KeyType(r.strategy)},
         {"table", r.table},
         {"file", r.file.string()},
         {"insert_seconds", r.insert_seconds},
         {"samples", samples},
         {"file_bytes", r.file_bytes},
         {"pages", r.pages},
         {"data_pages", r.data_pages},
         {"index_pages", r.index_pages},
         {"leaf_pages", r.leaf_pages},
         {"levels", r.levels},
         {"records", r.records},
         {"avg_leaf_fill", r.avg_leaf_fill},
         {"page_splits", r.page_splits ? nlohmann::json(*r.page_splits) : nlohmann::json(nullptr)},
         {"server_leaf_pages", r.server_leaf_pages ? nlohmann::json(*r.server_leaf_pages) : nlohmann::json(nullptr)},
         {"count", r.count},
         {"count_cold_seconds", r.count_cold_seconds},
         {"count_warm_seconds", r.count_warm_seconds}});
  }
  nlohmann::json strategies = nlohmann::json::array();
  for (KeyStrategy s : o.strategies) strategies.push_back(ToString(s));
  return {{"command", "experiment keys"},
          {"command_line", report.command_line},
          {"rows", o.rows},
          {"batch", o.batch},
          {"buffer_pool_bytes", o.buffer_pool_bytes},
          {"shape", o.shape == TableShape::kSbtest ? "sbtest" : "key-only"},
          {"seed", o.seed},
          {"flush_log_at_trx_commit", o.flush_log_at_trx_commit},
          {"strategies", strategies},
          {"mariadb_version",
           report.mariadb_version.empty() ? nlohmann::json(nullptr) : nlohmann::json(report.mariadb_version)},
          {"results", results}};
}

std::string SummaryTable(const KeyReport& report) {
  const auto rows = FigureTable(report);
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::size_t pad = width[c] - row[c].size();
      out += c ? "  " : "";
      out += c < 3 ? row[c] + std::string(pad, ' ') : std::string(pad, ' ') + row[c];
    }
    out += "\n";
  }
  return out;
}

Status WriteKeyReport(const std::filesystem::path& dir, const KeyReport& report,
                      std::vector<std::filesystem::path>* written) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::IoError(dir.string() + ": " + ec.message());
  const auto& o = report.options;
  std::vector<Block> blocks;
  blocks.push_back({Block::kHeading, "Key strategies: what the primary key does to an InnoDB table", "", {}});
  blocks.push_back(
      {Block::kParagraph,
       fmt::format(
           "{} rows per table, inserted as an application would: autocommit INSERT statements of {} "
           "row{}, keys in the order they were generated (seed {}); table shape {}; buffer pool {} MiB; "
           "innodb_flush_log_at_trx_commit={}. Each table was loaded into a fresh data directory; page "
           "figures were read from its .ibd file after a clean shutdown, as `strata inspect summary` "
           "reads them. COUNT(*) cold: after a restart with the file dropped from the OS page cache; warm: "
           "the same query again.{}",
           viz::Thousands(o.rows), viz::Thousands(o.batch), o.batch == 1 ? "" : "s", o.seed,
           o.shape == TableShape::kSbtest ? "sbtest" : "key-only", o.buffer_pool_bytes >> 20, o.flush_log_at_trx_commit,
           report.mariadb_version.empty()
               ? ""
               : " The MariaDB rows ran the same statements on a private " + report.mariadb_version + " server."),
       "",
       {}});
  if (!report.command_line.empty()) blocks.push_back({Block::kParagraph, "Command: " + report.command_line, "", {}});
  blocks.push_back({Block::kHeading, "Figures", "", {}});
  blocks.push_back({Block::kTable, "", "", FigureTable(report)});
  for (const auto& f : Findings(report)) blocks.push_back({Block::kParagraph, f, "", {}});
  if (!report.mariadb_version.empty()) {
    blocks.push_back(
        {Block::kParagraph,
         "Insert times of the two engines differ for reasons beyond the key: Strata reads and writes its "
         "files through the OS page cache, MariaDB with O_DIRECT (innodb_flush_method's default), so once a "
         "table outgrows the buffer pool a miss costs MariaDB a device read and Strata a copy from memory; and "
         "Strata parses every statement in full where MariaDB's parser is much faster. The page figures do "
         "not depend on either.",
         "",
         {}});
  }
  blocks.push_back({Block::kHeading, "Insert time", "", {}});
  if (Status s = WriteInsertPlot(dir / "insert_time.png", report); !s.ok()) return s;
  if (written) written->push_back(dir / "insert_time.png");
  blocks.push_back({Block::kImage, "Cumulative seconds against rows inserted", "insert_time.png", {}});
  blocks.push_back({Block::kHeading, "Maps", "", {}});
  if (Status s = WriteMaps(dir, report, blocks, written); !s.ok()) return s;
  blocks.push_back({Block::kHeading, "Why", "", {}});
  blocks.push_back({Block::kParagraph, WhyParagraph(report), "", {}});
  blocks.push_back({Block::kHeading, "Terms", "", {}});
  blocks.push_back({Block::kParagraph, kGlossary, "", {}});
  const std::string md = ToMarkdown(blocks);
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"report.md", md},
                                   {"report.html", ToHtml(blocks)},
                                   {"results.json", ToJson(report).dump(2) + "\n"}}) {
    if (Status s = viz::WriteFileAtomically(dir / name, text); !s.ok()) return s;
    if (written) written->push_back(dir / name);
  }
  return Status::Ok();
}

}  // namespace strata::experiments
