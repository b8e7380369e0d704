// nsys/nvtxTree through the dispatcher on h100_2gpu_1s: threads, then a thread's ranges, the wire's shape, and a bad
// parent id as a clear -32602 while the session keeps serving.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "fixtures.h"
#include "in_memory_client.h"

namespace nsys::testing {
namespace {

class NvtxTreeMethod : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    client_ = std::make_unique<InMemoryClient>(InMemoryClient::Options{});
    const Json init = client_->Initialize();
    methods_ = init["result"]["capabilities"]["experimental"]["nsysMethods"];
    const Json open =
        client_->AwaitReply(client_->Request("nsys/openProfile", {{"path", Fixture("h100_2gpu_1s.sqlite")}}));
    ASSERT_TRUE(open.contains("result")) << open.dump();
    id_ = open["result"]["profileId"];
  }
  Json Tree(Json params) {
    params["profileId"] = id_;
    return client_->AwaitReply(client_->Request("nsys/nvtxTree", params));
  }
  std::unique_ptr<InMemoryClient> client_;
  Json methods_;
  std::string id_;
};

TEST_F(NvtxTreeMethod, ThreadsThenRangesInTheSpecsShape) {
  EXPECT_NE(std::find(methods_.begin(), methods_.end(), "nsys/nvtxTree"), methods_.end()) << methods_.dump();
  const Json threads = Tree(Json::object());
  ASSERT_TRUE(threads.contains("result")) << threads.dump();
  const Json& nodes = threads["result"]["nodes"];
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(threads["result"]["truncated"], false);
  Json thread;
  for (const Json& n : nodes) {
    if (n["id"] == "t111.111") thread = n;
  }
  ASSERT_TRUE(thread.is_object()) << nodes.dump();
  EXPECT_EQ(thread["kind"], "thread");
  EXPECT_EQ(thread["pid"], 111);
  EXPECT_EQ(thread["tid"], 111);
  EXPECT_EQ(thread["instances"], 2169);
  EXPECT_EQ(thread["wallNs"], 948094737);
  EXPECT_EQ(thread["gpuNs"], 11554810);
  EXPECT_EQ(thread["kernelCount"], 816);
  EXPECT_EQ(thread["hasChildren"], true);
  for (const char* key : {"name", "label", "startNs", "endNs"}) EXPECT_TRUE(thread.contains(key)) << key;

  const Json ranges = Tree({{"parent", thread["id"]}});
  ASSERT_TRUE(ranges.contains("result")) << ranges.dump();
  const Json& first = ranges["result"]["nodes"][0];
  EXPECT_EQ(first["kind"], "range");
  EXPECT_EQ(first["name"], "aten::linear");
  EXPECT_EQ(first["instances"], 140);
  EXPECT_EQ(first["gpuNs"], 9916911);
  EXPECT_EQ(first["kernelCount"], 122);

  // A filter on the wire: one process.
  const Json one = Tree({{"filter", {{"processes", {112}}}}});
  ASSERT_TRUE(one.contains("result")) << one.dump();
  ASSERT_EQ(one["result"]["nodes"].size(), 1u);
  EXPECT_EQ(one["result"]["nodes"][0]["pid"], 112);
}

TEST_F(NvtxTreeMethod, ABadParentIsInvalidParamsNamingItAndTheSessionKeepsServing) {
  const Json bad = Tree({{"parent", "t111.111/4294967295"}});
  ASSERT_TRUE(bad.contains("error")) << bad.dump();
  EXPECT_EQ(bad["error"]["code"], -32602);
  EXPECT_EQ(bad["error"]["message"].get<std::string>().rfind("parent: 't111.111/4294967295' is not a node", 0), 0u)
      << bad.dump();
  const Json wrong_type = Tree({{"parent", 7}});
  ASSERT_TRUE(wrong_type.contains("error")) << wrong_type.dump();
  EXPECT_EQ(wrong_type["error"]["code"], -32602);
  EXPECT_NE(wrong_type["error"]["message"].get<std::string>().find("params.parent"), std::string::npos)
      << wrong_type.dump();
  const Json ok = Tree(Json::object());
  EXPECT_TRUE(ok.contains("result")) << ok.dump();
}

}  // namespace
}  // namespace nsys::testing
