#include "nsys/skills/summary_table.h"

namespace nsys::skills {

void AddTimeSummaryColumns(std::vector<Column>& columns, const std::string& count_name, const std::string& what) {
  columns.push_back(MakeColumn("time_pct", ValueType::kDouble,
                               "Share of the summed time of all rows listed (not of wall time), in %"));
  columns.push_back(MakeColumn("total_time_ns", ValueType::kInt, "Summed duration of all " + what + ", ns"));
  columns.push_back(MakeColumn(count_name, ValueType::kInt, "Number of " + what));
  AddStatColumns(columns, "", "_ns", what);
}

void AddTimeSummaryCells(std::vector<Value>& row, const SampleSummary& s, int64_t pct_denominator) {
  row.push_back(PctOf(s.total, pct_denominator));
  row.push_back(Value(s.total));
  row.push_back(Value(s.count));
  AddStatCells(row, s);
}

void AddStatColumns(std::vector<Column>& columns, const std::string& prefix, const std::string& unit,
                    const std::string& what) {
  columns.push_back(MakeColumn(prefix + "avg" + unit, ValueType::kDouble, "Mean over " + what));
  columns.push_back(MakeColumn(prefix + "med" + unit, ValueType::kDouble, "Median over " + what));
  columns.push_back(MakeColumn(prefix + "min" + unit, ValueType::kInt, "Minimum over " + what));
  columns.push_back(MakeColumn(prefix + "max" + unit, ValueType::kInt, "Maximum over " + what));
  columns.push_back(MakeColumn(prefix + "stddev" + unit, ValueType::kDouble, "Sample standard deviation over " + what));
}

void AddStatCells(std::vector<Value>& row, const SampleSummary& s) {
  row.push_back(Value(RoundTo(s.avg, 1)));
  row.push_back(Value(RoundTo(s.median, 1)));
  row.push_back(Value(s.min));
  row.push_back(Value(s.max));
  row.push_back(Value(RoundTo(s.stddev, 1)));
}

void AddNullStatCells(std::vector<Value>& row) {
  for (int i = 0; i < 5; ++i) row.push_back(Value());
}

}  // namespace nsys::skills
