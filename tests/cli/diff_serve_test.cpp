// nsys/diff over `nsys-ai serve --stdio` (the real binary): two opened fixtures compared, the typed result, and the
// errors a client gets for unknown ids and a bad phase map; the server keeps serving after each.
#include <gtest/gtest.h>

#include <string>

#include "fixtures.h"
#include "serve_session.h"

namespace nsys::testing {
namespace {

using nlohmann::json;

std::string OpenId(ServeSession& s, const std::string& fixture) {
  const json r = s.Call("nsys/openProfile", {{"path", Fixture(fixture)}});
  EXPECT_TRUE(r.contains("result")) << r.dump();
  return r.contains("result") ? r["result"]["profileId"].get<std::string>() : "";
}

TEST(DiffServe, ComparesTwoOpenProfilesAndRefusesBadInput) {
  NSYS_REQUIRE_FIXTURES();
  ServeSession s({"serve", "--stdio", "--no-cache"}, {});
  ASSERT_TRUE(s.ok());
  const std::string before = OpenId(s, "mfu_2gpu_before.sqlite");
  const std::string after = OpenId(s, "mfu_2gpu_after.sqlite");

  const json r = s.Call("nsys/diff", {{"baseProfileId", before}, {"newProfileId", after}, {"maxRows", 3}});
  ASSERT_TRUE(r.contains("result")) << r.dump();
  const json& d = r["result"];
  EXPECT_EQ(d["verdict"], "regressed");
  EXPECT_EQ(d["comparability"]["label"], "comparable");
  EXPECT_NEAR(d["headline"]["baseNs"].get<double>(), 16.727e6, 0.01e6);
  EXPECT_NEAR(d["headline"]["newNs"].get<double>(), 18.914e6, 0.01e6);
  EXPECT_EQ(d["kernels"].size(), 3u);  // maxRows shared kernels; none appeared or disappeared
  EXPECT_EQ(d["kernels"][0]["shortName"], "ncclDevKernel_SendRecv");
  EXPECT_EQ(d["kernels"][0]["baseCalls"], 66);
  EXPECT_EQ(d["kernels"][0]["newCalls"], 62);
  EXPECT_NE(d["answer"]["verify"].get<std::string>().find(Fixture("mfu_2gpu_after.sqlite")), std::string::npos);
  EXPECT_FALSE(d["markdown"].get<std::string>().empty());

  const json unknown = s.Call("nsys/diff", {{"baseProfileId", before}, {"newProfileId", "p99"}});
  EXPECT_EQ(unknown["error"]["code"], -32602) << unknown.dump();
  const json missing = s.Call("nsys/diff", {{"baseProfileId", before}});
  EXPECT_EQ(missing["error"]["code"], -32602);
  EXPECT_NE(missing["error"]["message"].get<std::string>().find("newProfileId"), std::string::npos);
  const json bad_map =
      s.Call("nsys/diff", {{"baseProfileId", before}, {"newProfileId", after}, {"phaseMap", "{\"a\": [\"re:(\"]}"}});
  EXPECT_EQ(bad_map["error"]["code"], -32602) << bad_map.dump();
  EXPECT_NE(bad_map["error"]["message"].get<std::string>().find("bad regex"), std::string::npos);
  const json rows = s.Call("nsys/diff", {{"baseProfileId", before}, {"newProfileId", after}, {"maxRows", -1}});
  EXPECT_EQ(rows["error"]["code"], -32602);
  EXPECT_TRUE(s.Call("nsys/listSkills", json::object()).contains("result"));  // still serving
}

}  // namespace
}  // namespace nsys::testing
