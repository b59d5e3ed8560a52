#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>

#include "viz/app/panels.h"

namespace strata::viz {

void ComparePanel::Draw(AppState& app, bool* open) {
  if (!app.all_loaded()) return;
  if (!ImGui::Begin("Compare", open)) return ImGui::End();
  std::vector<std::size_t> usable;  // files that opened
  for (std::size_t i = 0; i < app.files.size(); ++i) {
    if (app.files[i]->file) usable.push_back(i);
  }
  if (usable.size() < 2) {
    ImGui::TextWrapped("Comparing needs two tablespaces; %zu opened.", usable.size());
    return ImGui::End();
  }
  // Which two: A and B from the open files.
  const float combo_w = std::max(80.0f, (ImGui::GetContentRegionAvail().x - 60) / 2);
  auto pick = [&](const char* label, std::size_t* chosen) {
    ImGui::SetNextItemWidth(combo_w);
    if (!ImGui::BeginCombo(label, app.files[*chosen]->path.filename().c_str())) return;
    for (std::size_t i : usable) {
      if (ImGui::Selectable(app.files[i]->path.string().c_str(), i == *chosen)) *chosen = i;
    }
    ImGui::EndCombo();
  };
  if (!app.files[app.compare_a]->file) app.compare_a = usable[0];
  if (!app.files[app.compare_b]->file) app.compare_b = usable[1];
  pick("A", &app.compare_a);
  ImGui::SameLine();
  pick("B", &app.compare_b);
  const LoadedFile& a = *app.files[app.compare_a];
  const LoadedFile& b = *app.files[app.compare_b];
  if (shown_ != std::make_pair(app.compare_a, app.compare_b)) {
    comparison_ =
        inspect::CompareSpaces(a.summary, a.indexes, a.file->file_bytes(), b.summary, b.indexes, b.file->file_bytes());
    shown_ = {app.compare_a, app.compare_b};
  }
  const inspect::SpaceComparison& c = comparison_;
  ImGui::TextDisabled("A: %s (%s)", c.file_a.c_str(), c.flavor_a.c_str());
  ImGui::TextDisabled("B: %s (%s)", c.file_b.c_str(), c.flavor_b.c_str());

  if (ImGui::BeginTable("figures", 4,
                        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    for (const char* h : {"", "A", "B", "B vs A"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& f : c.figures) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(inspect::Label(f).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(inspect::Shown(f, f.a).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(inspect::Shown(f, f.b).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(inspect::Versus(f).c_str());
    }
    ImGui::EndTable();
  }
  for (const auto& [side, names] : {std::pair{"A", &c.only_in_a}, std::pair{"B", &c.only_in_b}}) {
    if (names->empty()) continue;
    std::string list;
    for (const auto& n : *names) list += (list.empty() ? "" : ", ") + n;
    ImGui::TextWrapped("only in %s: %s", side, list.c_str());
  }
  ImGui::TextWrapped("%s", inspect::RecordCountsVerdict(c).c_str());
  // Leaf fill of each shared index: A's and B's histograms side by side, on one scale.
  for (const auto& ix : c.indexes) {
    std::uint64_t top = 1;
    for (int k = 0; k < 10; ++k) top = std::max({top, ix.leaf_fill_a[k], ix.leaf_fill_b[k]});
    ImGui::Separator();
    ImGui::Text("%s leaf fill", ix.name.c_str());
    const float width = std::max(120.0f, (ImGui::GetContentRegionAvail().x - 60) / 2);
    ImGui::BeginGroup();
    LeafFillHistogram("A##" + ix.name, ix.leaf_fill_a, top, width);
    ImGui::EndGroup();
    ImGui::SameLine(0, 16);
    ImGui::BeginGroup();
    LeafFillHistogram("B##" + ix.name, ix.leaf_fill_b, top, width);
    ImGui::EndGroup();
  }
  ImGui::End();
}

}  // namespace strata::viz
