// nsys/explainKernel through the dispatcher on a real fixture: the typed result's numbers agree with top_kernels
// (per device) run through nsys/runSkill, and bad kernels get clear errors while the session keeps serving.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>

#include "fixtures.h"
#include "in_memory_client.h"

namespace nsys::testing {
namespace {

class ExplainKernelMethod : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    client_ = std::make_unique<InMemoryClient>(InMemoryClient::Options{});
    client_->Initialize();
    const Json open =
        client_->AwaitReply(client_->Request("nsys/openProfile", {{"path", Fixture("mfu_2gpu_before.sqlite")}}));
    ASSERT_TRUE(open.contains("result")) << open.dump();
    id_ = open["result"]["profileId"];
  }
  Json Explain(const std::string& kernel) {
    return client_->AwaitReply(client_->Request("nsys/explainKernel", {{"profileId", id_}, {"kernel", kernel}}));
  }
  std::unique_ptr<InMemoryClient> client_;
  std::string id_;
};

TEST_F(ExplainKernelMethod, NumbersAgreeWithTopKernelsPerDevice) {
  const std::string name = "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN";
  const Json reply = Explain(name);
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  const Json& r = reply["result"];
  EXPECT_EQ(r["kernel"], name);
  EXPECT_EQ(r["matchedBy"], "name");
  EXPECT_EQ(r["identity"]["library"], "cuBLAS");
  EXPECT_EQ(r["identity"]["category"], "gemm");
  EXPECT_EQ(r["identity"]["precision"], "bf16");
  EXPECT_EQ(r["identity"]["tile"], "192x192x64");
  EXPECT_EQ(r["identity"]["tensorCores"], "yes");
  EXPECT_FALSE(r["markdown"].get<std::string>().empty());

  const Json top = client_->AwaitReply(client_->Request(
      "nsys/runSkill", {{"profileId", id_}, {"skill", "top_kernels"}, {"args", {{"per_device", true}}}}));
  ASSERT_TRUE(top.contains("result")) << top.dump();
  std::map<std::string, size_t> col;
  for (size_t c = 0; c < top["result"]["columns"].size(); ++c) col[top["result"]["columns"][c]["name"]] = c;
  int matched = 0;
  int64_t calls = 0;
  for (const auto& row : top["result"]["rows"]) {
    if (row[col.at("name")] != name) continue;
    const int64_t device = row[col.at("device")];
    for (const auto& d : r["devices"]) {
      if (d["device"] != device) continue;
      ++matched;
      EXPECT_EQ(d["calls"], row[col.at("instances")]);
      EXPECT_EQ(d["totalNs"], row[col.at("total_time_ns")]);
      EXPECT_NEAR(d["p50Ns"].get<double>(), row[col.at("med_ns")].get<double>(), 0.5);
      // time_pct is a percentage with one decimal of the device's kernel time.
      EXPECT_NEAR(d["share"].get<double>() * 100.0, row[col.at("time_pct")].get<double>(), 0.05);
    }
    calls += row[col.at("instances")].get<int64_t>();
  }
  EXPECT_EQ(matched, 2);
  EXPECT_EQ(r["calls"], calls);
}

TEST_F(ExplainKernelMethod, BadKernelsAreInvalidParamsAndTheSessionKeepsServing) {
  const Json unknown = Explain("flash_fwd_kernal");
  ASSERT_TRUE(unknown.contains("error")) << unknown.dump();
  EXPECT_EQ(unknown["error"]["code"], -32602);
  EXPECT_EQ(unknown["error"]["message"].get<std::string>().rfind(
                "no kernel named 'flash_fwd_kernal' in this profile; closest: flash_fwd_kernel", 0),
            0u)
      << unknown.dump();
  const Json ambiguous = Explain("nvjet");
  EXPECT_EQ(ambiguous["error"]["code"], -32602) << ambiguous.dump();
  const Json missing = client_->AwaitReply(client_->Request("nsys/explainKernel", {{"profileId", id_}}));
  EXPECT_EQ(missing["error"]["code"], -32602) << missing.dump();
  EXPECT_NE(missing["error"]["message"].get<std::string>().find("params.kernel"), std::string::npos) << missing.dump();
  const Json wrong_profile =
      client_->AwaitReply(client_->Request("nsys/explainKernel", {{"profileId", "p99"}, {"kernel", "x"}}));
  EXPECT_EQ(wrong_profile["error"]["code"], -32602) << wrong_profile.dump();
  const Json ok = Explain("flash_fwd_kernel");
  ASSERT_TRUE(ok.contains("result")) << ok.dump();
  EXPECT_EQ(ok["result"]["identity"]["library"], "FlashAttention");
  EXPECT_EQ(ok["result"]["matchedBy"], "short name");
}

}  // namespace
}  // namespace nsys::testing
