#include "viz/app/panels.h"

#include <GL/gl.h>
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>

#include "inspect/page_info.h"
#include "inspect/page_regions.h"
#include "inspect/page_view.h"
#include "inspect/pages.h"
#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"

namespace strata::viz {

namespace {

ImU32 Col(Rgb c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }

// One RGBA texture per panel: a texel per cell.
void RebuildTextures(AppState& app) {
  std::vector<MapInput> inputs;
  for (const auto& f : app.files) {
    if (f->file) inputs.push_back({f->file.get(), &f->names});
  }
  app.model = BuildModel(inputs, {app.map, app.shared_scale, 4096, ""});
  if (!app.textures.empty()) glDeleteTextures(static_cast<GLsizei>(app.textures.size()), app.textures.data());
  app.textures.assign(app.model.panels.size(), 0);
  glGenTextures(static_cast<GLsizei>(app.textures.size()), app.textures.data());
  for (std::size_t i = 0; i < app.model.panels.size(); ++i) {
    const Panel& p = app.model.panels[i];
    const int w = static_cast<int>(app.model.cells_per_row), h = std::max<int>(1, app.model.RowsOf(p));
    std::vector<std::uint8_t> rgba(static_cast<std::size_t>(w) * h * 4, 0);  // cells past the file stay clear
    for (std::size_t c = 0; c < p.cells.size(); ++c) {
      Rgb color = p.cells[c];
      // Extents: the fill shows as intensity (full colour = full page).
      if (!p.bar_height.empty() && p.bar_background[c] != p.cells[c])
        color = inspect::Lighten(color, 0.75 * (1 - p.bar_height[c]));
      rgba[c * 4] = color.r, rgba[c * 4 + 1] = color.g, rgba[c * 4 + 2] = color.b, rgba[c * 4 + 3] = 255;
    }
    glBindTexture(GL_TEXTURE_2D, app.textures[i]);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  }
  app.model_dirty = false;
}

void PageTooltip(const LoadedFile& f, std::uint32_t n) {
  inspect::PageInfo p = inspect::AnalyzePage(*f.file, n);
  ImGui::BeginTooltip();
  ImGui::Text("%s page %u: %s", f.path.filename().c_str(), n, inspect::PageTypeName(p, f.file->flavor()).c_str());
  ImGui::Text("LSN %llu   checksum %s", static_cast<unsigned long long>(p.lsn), inspect::ChecksumText(p).c_str());
  if (p.is_btree) {
    const inspect::IndexDef* d = f.names.FindIndex(p.index_id);
    ImGui::Text("index %llu%s  level %u  %u records", static_cast<unsigned long long>(p.index_id),
                d ? (" (" + d->name + ")").c_str() : "", p.level, p.n_recs);
    ImGui::Text("data %u bytes, free %u, garbage %u; fill %.0f%%", p.data_size, p.free_bytes, p.garbage_bytes,
                100 * inspect::PageFill(p, f.file->page_size()));
  }
  ImGui::Text("prev %s  next %s", p.prev == ondisk::kFilNull ? "-" : std::to_string(p.prev).c_str(),
              p.next == ondisk::kFilNull ? "-" : std::to_string(p.next).c_str());
  ImGui::EndTooltip();
}

}  // namespace

void LeafFillHistogram(const std::string& label, const std::array<std::uint64_t, 10>& pages, std::uint64_t top,
                       float width) {
  float hist[10];
  std::uint64_t total = 0, peak = 0;
  for (int k = 0; k < 10; ++k) {
    hist[k] = static_cast<float>(pages[k]);
    total += pages[k];
    peak = std::max(peak, pages[k]);
  }
  // Bars: leaf pages per tenth of fill; the axis under them, the counts over them.
  // The counts above the plot, not over its bars (where a tall bar would hide them).
  ImGui::TextDisabled("%s leaf pages, tallest bar %s", Thousands(total).c_str(), Thousands(peak).c_str());
  const float x0 = ImGui::GetCursorPosX();
  ImGui::PlotHistogram(label.c_str(), hist, 10, 0, nullptr, 0.0f, top ? static_cast<float>(top) : FLT_MAX,
                       ImVec2(width, 60));
  ImGui::TextDisabled("0%%");
  ImGui::SameLine();  // (SameLine's own offset counts from a group's left, not the window's)
  ImGui::SetCursorPosX(x0 + width / 2 - ImGui::CalcTextSize("50%").x / 2);
  ImGui::TextDisabled("50%%");
  ImGui::SameLine();
  ImGui::SetCursorPosX(x0 + width - ImGui::CalcTextSize("100%").x);
  ImGui::TextDisabled("100%%");
}

void MapPanel::Draw(AppState& app) {
  ImGui::Begin("Page map");
  if (!app.all_loaded()) {
    // Each file is scanned a few times (summary, indexes); the bar follows files and the scan in hand.
    const float done = app.files.empty()
                           ? 1.0f
                           : (static_cast<float>(app.loaded.load()) + app.file_progress.load()) / app.files.size();
    ImGui::Text("Reading %zu tablespace%s...", app.files.size(), app.files.size() == 1 ? "" : "s");
    ImGui::ProgressBar(done);
    ImGui::End();
    return;
  }
  static const char* kMaps[] = {"extents (fill)", "lsn (age)", "types", "index"};
  int map = static_cast<int>(app.map);
  ImGui::SetNextItemWidth(160);
  if (ImGui::Combo("map", &map, kMaps, 4)) app.map = static_cast<MapKind>(map), app.model_dirty = true;
  ImGui::SameLine();
  if (ImGui::Checkbox("shared LSN scale", &app.shared_scale)) app.model_dirty = true;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(200);
  ImGui::SliderFloat("zoom (px per cell)", &app.zoom, 1.0f, 40.0f, "%.0f", ImGuiSliderFlags_Logarithmic);
  // The side windows, each closable and opened again here, on a line of their own.
  ImGui::TextDisabled("windows:");
  ImGui::SameLine();
  ImGui::Checkbox("summary", &app.show_summary);
  ImGui::SameLine();
  ImGui::Checkbox("B+trees", &app.show_btree);
  if (app.undo) {
    ImGui::SameLine();
    ImGui::Checkbox("undo", &app.show_undo);
  }
  if (app.files.size() >= 2) {
    ImGui::SameLine();
    ImGui::Checkbox("compare", &app.show_compare);
  }
  if (app.model_dirty) RebuildTextures(app);

  ImGui::BeginChild("maps", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  if (ImGui::IsWindowHovered() && ImGui::GetIO().KeyCtrl && ImGui::GetIO().MouseWheel != 0) {
    app.zoom = std::clamp(app.zoom * (ImGui::GetIO().MouseWheel > 0 ? 1.25f : 0.8f), 1.0f, 40.0f);
  }
  // Drag with the right button to pan.
  if (ImGui::IsWindowHovered() && ImGui::IsMouseDragging(ImGuiMouseButton_Right)) {
    const ImVec2 d = ImGui::GetIO().MouseDelta;
    ImGui::SetScrollX(ImGui::GetScrollX() - d.x);
    ImGui::SetScrollY(ImGui::GetScrollY() - d.y);
  }
  std::size_t panel = 0;
  for (std::size_t i = 0; i < app.files.size(); ++i) {
    const LoadedFile& f = *app.files[i];
    if (!f.file) continue;
    const Panel& p = app.model.panels[panel];
    if (panel) ImGui::SameLine();
    ImGui::BeginGroup();
    const float w = app.zoom * app.model.cells_per_row, h = app.zoom * std::max<std::uint32_t>(1, app.model.RowsOf(p));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::max(w, 280.0f));  // the texts wrap at the map's width
    ImGui::TextUnformatted(p.title.c_str());
    ImGui::TextDisabled("%s", p.subtitle.c_str());
    ImGui::PopTextWrapPos();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(app.textures[panel])), ImVec2(w, h));
    if (ImGui::IsItemHovered()) {
      const ImVec2 m = ImGui::GetIO().MousePos;
      const auto col = static_cast<std::uint32_t>((m.x - origin.x) / app.zoom);
      const auto row = static_cast<std::uint32_t>((m.y - origin.y) / app.zoom);
      const std::uint64_t page = (std::uint64_t{row} * app.model.cells_per_row + col) * app.model.pages_per_cell;
      if (col < app.model.cells_per_row && page < f.file->n_pages()) {
        PageTooltip(f, static_cast<std::uint32_t>(page));
        if (ImGui::IsMouseClicked(0))
          app.selected = std::make_pair(i, static_cast<std::uint32_t>(page)), app.show_page = true;
      }
    }
    for (const auto& e : p.legend) {
      ImGui::ColorButton(e.label.c_str(), ImVec4(e.color.r / 255.f, e.color.g / 255.f, e.color.b / 255.f, 1), 0,
                         ImVec2(12, 12));
      ImGui::SameLine();
      ImGui::Text("%s: %s page%s (%.1f%%)", e.label.c_str(), Thousands(e.pages).c_str(), e.pages == 1 ? "" : "s",
                  e.percent);
    }
    ImGui::EndGroup();
    ++panel;
  }
  ImGui::EndChild();
  ImGui::End();
}

void SummaryPanel::Draw(AppState& app, bool* open) {
  if (!ImGui::Begin("Summary", open)) return ImGui::End();
  for (const auto& f : app.files) {
    if (!f->ready) continue;
    if (!ImGui::CollapsingHeader(f->path.filename().c_str(), ImGuiTreeNodeFlags_DefaultOpen)) continue;
    if (!f->error.empty()) {
      ImGui::TextColored(ImVec4(1, 0.3f, 0.3f, 1), "%s", f->error.c_str());
      continue;
    }
    const auto& s = f->summary;
    const std::string space = s.space_id ? std::to_string(*s.space_id) : "unknown";
    ImGui::Text("%s, space %s, %zu-byte pages, %u pages", s.flavor.c_str(), space.c_str(), s.page_size, s.pages);
    ImGui::Text("checksums: %llu failed, %llu never written", static_cast<unsigned long long>(s.checksum_failures),
                static_cast<unsigned long long>(s.never_written));
    for (const auto& [type, n] : s.type_counts)
      ImGui::BulletText("%s: %llu", type.c_str(), static_cast<unsigned long long>(n));
    for (const auto& ix : f->indexes.indexes) {
      if (ix.levels.empty()) continue;
      LeafFillHistogram(fmt::format("{} leaf fill", ix.name.empty() ? std::to_string(ix.index_id) : ix.name),
                        ix.levels.back().fill_histogram);
    }
  }
  ImGui::End();
}

void BtreePanel::Draw(AppState& app, bool* open) {
  if (!ImGui::Begin("B+trees", open)) return ImGui::End();
  for (const auto& f : app.files) {
    if (!f->ready || !f->file) continue;
    for (const auto& ix : f->indexes.indexes) {
      const std::string title =
          fmt::format("{}: {}", f->path.filename().string(), ix.name.empty() ? std::to_string(ix.index_id) : ix.name);
      if (!ImGui::TreeNode(title.c_str())) continue;
      if (ImGui::BeginTable("levels", 5, ImGuiTableFlags_Borders)) {
        for (const char* h : {"level", "pages", "records", "avg fill", "max fill"}) ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
        for (const auto& l : ix.levels) {
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          ImGui::Text("%u", l.level);
          ImGui::TableNextColumn();
          ImGui::Text("%llu", static_cast<unsigned long long>(l.pages));
          ImGui::TableNextColumn();
          ImGui::Text("%llu", static_cast<unsigned long long>(l.records));
          ImGui::TableNextColumn();
          ImGui::Text("%.1f%%", 100 * l.fill_avg);
          ImGui::TableNextColumn();
          ImGui::Text("%.1f%%", 100 * l.fill_max);
        }
        ImGui::EndTable();
      }
      ImGui::Text("leaf chain: %llu of %llu steps not to the next page",
                  static_cast<unsigned long long>(ix.discontiguous_steps),
                  static_cast<unsigned long long>(ix.leaf_steps));
      ImGui::TreePop();
    }
  }
  ImGui::End();
}

void UndoPanel::Draw(AppState& app, bool* open) {
  if (!app.all_loaded() || !app.undo) return;
  if (!ImGui::Begin("Undo", open)) return ImGui::End();
  if (!app.undo_stale.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.75f, 0.2f, 1.0f));
    ImGui::TextWrapped("Warning: %s. The figures below are the files' as they are, not the server's.",
                       app.undo_stale.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Text("History list length %llu", static_cast<unsigned long long>(app.undo->history_list_length));
  ImGui::Text("History size %llu pages in %zu rollback segments",
              static_cast<unsigned long long>(app.undo->history_pages), app.undo->rsegs.size());
  if (ImGui::BeginTable("rsegs", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollY, ImVec2(0, 300))) {
    for (const char* h : {"rollback segment", "space", "page", "history"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& r : app.undo->rsegs) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.source.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%u", r.space_id);
      ImGui::TableNextColumn();
      ImGui::Text("%u", r.page);
      ImGui::TableNextColumn();
      ImGui::Text("%u", r.history_length);
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

void PagePanel::Draw(AppState& app, bool* open) {
  if (!app.selected) return;
  const auto [fi, n] = *app.selected;
  if (fi >= app.files.size() || !app.files[fi]->ready) return;  // --page N names it before it loads
  const LoadedFile& f = *app.files[fi];
  const std::string title = fmt::format("Page {} of {}###page", n, f.path.filename().string());
  if (!ImGui::Begin(title.c_str(), open)) return ImGui::End();
  if (!f.file || n >= f.file->n_pages()) {
    ImGui::Text("%s", f.file ? fmt::format("the file has {} pages", f.file->n_pages()).c_str() : f.error.c_str());
    return ImGui::End();
  }
  ondisk::ConstBytes page = f.file->page(n);
  // The page's regions (inspect/page_regions.h) as bands across its bytes.
  const std::vector<inspect::PageRegion> bands = inspect::PageRegions(*f.file, page);
  const std::size_t size = page.size();
  const float width = std::max(200.0f, ImGui::GetContentRegionAvail().x);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (const auto& b : bands) {
    dl->AddRectFilled(ImVec2(at.x + width * b.from / size, at.y), ImVec2(at.x + width * b.to / size, at.y + 24),
                      Col(b.color));
  }
  ImGui::Dummy(ImVec2(width, 28));
  for (const auto& b : bands) {
    ImGui::ColorButton(b.name.c_str(), ImVec4(b.color.r / 255.f, b.color.g / 255.f, b.color.b / 255.f, 1), 0,
                       ImVec2(12, 12));
    ImGui::SameLine();
    ImGui::Text("%s: bytes %zu..%zu (%zu)", b.name.c_str(), b.from, b.to, b.to - b.from);
  }
  ImGui::Separator();
  if (shown_ != *app.selected) {
    text_ = inspect::ToText(inspect::ViewPage(*f.file, n, true, &f.names));
    shown_ = *app.selected;
  }
  ImGui::BeginChild("fields");
  ImGui::TextUnformatted(text_.c_str());
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace strata::viz
