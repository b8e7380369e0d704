#pragma once
// Column sets and row cells shared by the skills that mirror `nsys stats` summaries, named by the report's
// CSV header lower-cased ("Time (%)" -> time_pct, "Total Time (ns)" -> total_time_ns, "Avg (ns)" -> avg_ns).
#include <string>
#include <utility>
#include <vector>

#include "nsys/skills/skill.h"
#include "nsys/skills/stats.h"

namespace nsys::skills {

inline Column MakeColumn(std::string name, ValueType type, std::string description = {}) {
  return Column{std::move(name), type, std::move(description)};
}

// time_pct, total_time_ns, <count_name>, avg_ns, med_ns, min_ns, max_ns, stddev_ns.
void AddTimeSummaryColumns(std::vector<Column>& columns, const std::string& count_name, const std::string& what);
// The matching cells; time_pct is `s.total` as a share of `pct_denominator`. avg/med/stddev are rounded to
// 0.1 ns as nsys prints them.
void AddTimeSummaryCells(std::vector<Value>& row, const SampleSummary& s, int64_t pct_denominator);

// <prefix>avg<unit>, <prefix>med<unit>, <prefix>min<unit>, <prefix>max<unit>, <prefix>stddev<unit>
// (kernexecsum's TAvg..TStdDev style, without the total and count).
void AddStatColumns(std::vector<Column>& columns, const std::string& prefix, const std::string& unit,
                    const std::string& what);
void AddStatCells(std::vector<Value>& row, const SampleSummary& s);
// The same cells as nulls (a group with no samples, e.g. no positive queue time).
void AddNullStatCells(std::vector<Value>& row);

}  // namespace nsys::skills
