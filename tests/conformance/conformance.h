#pragma once
// Conformance against NVIDIA's own tools: for every fixture and every case, run `nsys stats` (or `nsys analyze`)
// on a copy of the fixture and our skill through the library, and assert the same rows and values (integers and
// strings exactly, other numbers to the precision nsys prints). A case is a row in a table:
//
//   {.name = "gpukernsum", .tool = "stats", .report = "gpukernsum", .skill = "top_kernels",
//    .args = {{"by_launch_config", Value(true)}}, .key_columns = {"Name", "GridXYZ", "BlockXYZ"},
//    .order_by = "Total Time (ns)", .known_differences = {{"mfu_2gpu_before.sqlite", "Total Time (ns)", "why"}}}
//
// nsys's columns map to ours by the naming rule (lower-case, "(%)" -> pct, "(ns)" -> ns, spaces -> "_"); a
// `columns` entry overrides one (another name, a scale such as bytes -> MB, or Compare::kIgnore). Where NVIDIA's
// output is wrong, list the difference with its reason: the test then accepts exactly those mismatches, and fails
// if a listed difference no longer occurs (so the list stays true). nsys outputs are cached on disk under the
// temp directory, keyed by fixture and nsys binary, so a test run pays for each nsys call once.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nsys/skills/skill.h"

namespace nsys::conformance {

enum class Compare {
  kAuto,    // strings and printed integers exactly; printed decimals to their printed precision
  kIgnore,  // not compared (e.g. ids that are arbitrary by design)
};

struct ColumnSpec {
  std::string skill_column = {};  // empty = derived from the nsys header by the naming rule
  double scale = 1.0;             // our value * scale is compared (e.g. bytes -> MB: 1e-6)
  Compare compare = Compare::kAuto;
};

// A `columns` entry for a column never compared.
inline const ColumnSpec kIgnored{"", 1.0, Compare::kIgnore};

struct KnownDifference {
  std::string fixture = {};  // "h100_2gpu_1s.sqlite"; "*" = every fixture
  std::string column = {};   // the nsys header whose values differ; "*rows*" = the sets of rows differ; "*declined*"
  std::string reason = {};   // why our value is the right one
};

struct Case {
  std::string name = {};       // unique, [A-Za-z0-9_]: the test name prefix
  std::string tool = "stats";  // "stats" (nsys stats --report) or "analyze" (nsys analyze --rule)
  std::string report = {};     // with nsys arguments, e.g. "gpukernsum:base" or "gpu-starv:rows=0"
  std::string skill = {};
  skills::Args args = {};
  std::vector<std::string> key_columns = {};       // nsys headers that identify a row
  std::map<std::string, ColumnSpec> columns = {};  // overrides of the naming rule, by nsys header
  std::string order_by = {};                       // optional nsys header our rows must be sorted by...
  bool order_descending = true;                    // ...in this direction
  std::vector<std::string> fixtures = {};          // empty = every fixture
  std::vector<KnownDifference> known_differences = {};
};

// The fixtures every case runs on (those absent from the fixtures folder are skipped at run time).
const std::vector<std::string>& AllFixtures();

// "Total Time (ns)" -> "total_time_ns", "Time (%)" -> "time_pct", "NumGPUOps" -> "numgpuops".
std::string SkillColumnName(const std::string& nsys_header);

struct Reference {
  bool declined = false;  // nsys printed "SKIPPED: ..." (the data is absent)
  std::string message;    // the SKIPPED text, or an error
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
};

// nsys's output for (tool, report) on a fixture, from the cache or by running nsys on a private copy.
// An error when nsys is not installed or fails unexpectedly.
Expected<Reference> RunNsys(const std::string& tool, const std::string& report, const std::string& fixture);

// True when an nsys binary runs here (NSYS_BINARY, else `nsys` on PATH).
bool HaveNsys();

// Runs one case on one fixture and reports through gtest; also prints one line for the conformance matrix.
void RunCase(const Case& c, const std::string& fixture);

// Test-name-safe parameter naming: "<case>__<fixture stem>".
std::string ParamName(const Case& c, const std::string& fixture);

}  // namespace nsys::conformance

// Instantiates a parameterized conformance test over `cases` (a const std::vector<Case>&) x every fixture.
#define NSYS_CONFORMANCE_SUITE(suite, cases)                                                                  \
  class suite : public ::testing::TestWithParam<std::pair<const ::nsys::conformance::Case*, std::string>> {}; \
  TEST_P(suite, MatchesNvidia) {                                                                              \
    ::nsys::conformance::RunCase(*GetParam().first, GetParam().second);                                       \
  }                                                                                                           \
  INSTANTIATE_TEST_SUITE_P(                                                                                   \
      Nsys, suite, ::testing::ValuesIn(::nsys::conformance::internal::Expand(cases)),                         \
      [](const ::testing::TestParamInfo<std::pair<const ::nsys::conformance::Case*, std::string>>& which) {   \
        return ::nsys::conformance::ParamName(*which.param.first, which.param.second);                        \
      })

namespace nsys::conformance::internal {
std::vector<std::pair<const Case*, std::string>> Expand(const std::vector<Case>& cases);
}  // namespace nsys::conformance::internal
