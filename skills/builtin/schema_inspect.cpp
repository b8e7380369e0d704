// schema_inspect: what the export holds (tables, their columns and row counts, the schema and nsys versions), from
// the facts the engine reads at open. Loads no events.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nsys/skills/summary_table.h"

namespace nsys::skills::builtin {
namespace {

class SchemaInspect final : public Skill {
 public:
  std::string name() const override { return "schema_inspect"; }
  std::string description() const override {
    return "Tables in the export with their row counts and columns, plus schema version, nsys version and what was "
           "traced.";
  }
  engine::Need needs() const override { return static_cast<engine::Need>(0); }
  std::vector<ArgSpec> args() const override {
    return {{"table", ValueType::kString, "Only tables whose name contains this text (case-insensitive).",
             Value(std::string())}};
  }

  Expected<Table> run(const Context& ctx) const override {
    const engine::ProfileInfo& info = ctx.profile.info();
    const std::string filter = Lower(ArgString(ctx, "table"));
    Table table;
    table.columns = {
        MakeColumn("table", ValueType::kString, "Table name"),
        MakeColumn("rows", ValueType::kInt, "Row count"),
        MakeColumn("num_columns", ValueType::kInt, "Number of columns"),
        MakeColumn("columns", ValueType::kString, "Column names, comma-separated"),
    };
    for (const engine::TableInfo& t : info.tables) {
      if (!filter.empty() && Lower(t.name).find(filter) == std::string::npos) continue;
      std::string columns;
      for (const auto& c : t.columns) columns += (columns.empty() ? "" : ", ") + c;
      table.rows.push_back(
          {Value(t.name), Value(t.rows), Value(static_cast<int64_t>(t.columns.size())), Value(std::move(columns))});
    }

    auto or_unknown = [](const std::string& s) { return s.empty() ? std::string("unknown") : s; };
    table.notes.push_back(
        fmt::format("Export schema version {}, written by Nsight Systems {}; metadata table: {}. {} tables.",
                    or_unknown(info.schema_version), or_unknown(info.nsys_version),
                    info.metadata_table.empty() ? "none" : info.metadata_table, info.tables.size()));
    const engine::Capabilities& c = info.caps;
    std::vector<std::string> present, absent;
    auto cap = [&](bool has, const char* what) { (has ? present : absent).push_back(what); };
    cap(c.kernels, "CUDA kernels");
    cap(c.runtime, "CUDA API calls");
    cap(c.memcpy, "memcpy");
    cap(c.memset, "memset");
    cap(c.sync, "CUDA synchronization");
    cap(c.nvtx, "NVTX");
    cap(c.gpu_info, "GPU info");
    cap(c.cuda_streams, "CUDA streams");
    cap(c.profiler_overhead, "profiler overhead");
    cap(c.osrt, "OS runtime calls");
    cap(c.enums, "ENUM tables");
    auto join = [](const std::vector<std::string>& v) {
      std::string out;
      for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
      return out.empty() ? std::string("none") : out;
    };
    table.notes.push_back(fmt::format("Traced: {}. Not in this export: {}.", join(present), join(absent)));
    std::string devices;
    for (const auto& d : info.devices) {
      devices += fmt::format("{}{}{}", devices.empty() ? "" : "; ", d.id, d.name.empty() ? "" : " (" + d.name + ")");
    }
    table.notes.push_back(fmt::format("Devices: {}. Processes: {}. Threads: {}.", devices.empty() ? "none" : devices,
                                      info.processes.size(), info.threads.size()));
    if (info.end_ns > info.start_ns) {
      table.notes.push_back(fmt::format("Profile time range on the capture clock: {} ns to {} ns ({:.6f} s).",
                                        info.start_ns, info.end_ns,
                                        static_cast<double>(info.end_ns - info.start_ns) / 1e9));
    }
    if (!filter.empty() && table.rows.empty()) {
      table.notes.push_back(fmt::format("No table name contains \"{}\".", ArgString(ctx, "table")));
    }
    return table;
  }

 private:
  static std::string Lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return s;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeSchemaInspect() {
  return std::make_shared<SchemaInspect>();
}

}  // namespace nsys::skills::builtin
