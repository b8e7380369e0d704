#pragma once
// nsys/analyze: the Book of Root Causes checked against a profile (server/agent/analyze.h).
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "nsys/protocol/answer.h"
#include "nsys/protocol/mcp.h"
#include "nsys/protocol/methods.h"
#include "nsys/protocol/wire_fields.h"

namespace nsys::protocol {

struct AnalyzeParams {  // nsys/analyze
  std::string profile_id;
  std::optional<Window> window;  // absent = the whole profile
  static constexpr auto WireFields() {
    using S = AnalyzeParams;
    return std::tuple{Field("profileId", &S::profile_id), Field("window", &S::window)};
  }
  bool operator==(const AnalyzeParams&) const = default;
};

struct UncheckedCause {  // a root cause this profile cannot be checked for
  std::string root_cause;
  std::string missing;
  static constexpr auto WireFields() {
    using S = UncheckedCause;
    return std::tuple{Field("rootCause", &S::root_cause), Field("missing", &S::missing)};
  }
  bool operator==(const UncheckedCause&) const = default;
};

// With a partialResultToken the findings go out as they are found, one AnalyzePartialResult each, and the result's
// `findings` is empty with `streamedFindings` set (LSP: partial results carry the items, the response none);
// `ranking` orders them either way (root cause ids, most time at stake first).
struct AnalyzeResult {
  std::string summary;
  std::string window;
  std::vector<Finding> findings;
  std::vector<std::string> ranking;
  std::vector<UncheckedCause> unchecked;
  int64_t root_causes_checked = 0;
  std::string markdown;  // the whole report, rendered by the server
  std::optional<int64_t> streamed_findings;
  static constexpr auto WireFields() {
    using S = AnalyzeResult;
    return std::tuple{Field("summary", &S::summary),
                      OptionalField("window", &S::window),
                      Field("findings", &S::findings),
                      OptionalField("ranking", &S::ranking),
                      OptionalField("unchecked", &S::unchecked),
                      OptionalField("rootCausesChecked", &S::root_causes_checked),
                      OptionalField("markdown", &S::markdown),
                      Field("streamedFindings", &S::streamed_findings)};
  }
  bool operator==(const AnalyzeResult&) const = default;
};

struct AnalyzePartialResult {
  std::vector<Finding> findings;
  static constexpr auto WireFields() {
    using S = AnalyzePartialResult;
    return std::tuple{Field("findings", &S::findings)};
  }
  bool operator==(const AnalyzePartialResult&) const = default;
};

#define NSYS_ANALYZE_CONVERSIONS(Type)                                 \
  void FromJson(const Json& json, Type& out, const std::string& path); \
  void to_json(Json& json, const Type& value);
NSYS_ANALYZE_CONVERSIONS(AnalyzeParams)
NSYS_ANALYZE_CONVERSIONS(UncheckedCause)
NSYS_ANALYZE_CONVERSIONS(AnalyzeResult)
NSYS_ANALYZE_CONVERSIONS(AnalyzePartialResult)
#undef NSYS_ANALYZE_CONVERSIONS

namespace mcp {
// analyze (MCP tool): nsys/analyze's params with the window as three flat arguments of the tool's own, which the
// tool makes the params' window.
struct AnalyzeArgs : AnalyzeParams {
  std::optional<double> start;  // seconds from the profile start unless clock is capture_ns
  std::optional<double> end;
  std::optional<WindowClock> clock;
  static constexpr auto Fields() {
    return std::tuple_cat(ParamsArgs<AnalyzeParams>(Except<&AnalyzeParams::window>{}),
                          std::tuple{Arg("start", &AnalyzeArgs::start), Arg("end", &AnalyzeArgs::end),
                                     Arg("clock", &AnalyzeArgs::clock)});
  }
  bool operator==(const AnalyzeArgs&) const = default;
};
void FromJson(const Json& json, AnalyzeArgs& out, const std::string& path);
}  // namespace mcp

}  // namespace nsys::protocol
