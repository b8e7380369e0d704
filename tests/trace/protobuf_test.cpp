#include "nsys/trace/protobuf.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace nsys::trace {
namespace {

std::string Hex(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

TEST(ProtoEncoder, VarintsAndTags) {
  ProtoEncoder e;
  e.VarintField(1, 0);
  e.VarintField(1, 127);
  e.VarintField(1, 128);
  e.VarintField(1, 300);
  EXPECT_EQ(Hex(e.view()), "0800087f08800108ac02");
  e.Clear();
  e.IntField(2, -1);  // negative ints are 10-byte varints
  EXPECT_EQ(Hex(e.view()), "10ffffffffffffffffff01");
  e.Clear();
  e.Fixed64Field(47, 0x0102030405060708ull);  // field 47, wire type 1: key 0x179 -> f9 02
  EXPECT_EQ(Hex(e.view()), "f9020807060504030201");
  e.Clear();
  e.DoubleField(5, 1.0);
  EXPECT_EQ(Hex(e.view()), "29000000000000f03f");
  EXPECT_EQ(VarintSize(0), 1u);
  EXPECT_EQ(VarintSize(127), 1u);
  EXPECT_EQ(VarintSize(128), 2u);
  EXPECT_EQ(VarintSize(~uint64_t{0}), 10u);
}

TEST(ProtoEncoder, NestedMessagesWidenTheirLength) {
  for (size_t len : {0u, 1u, 127u, 128u, 300u, 20000u, 3000000u}) {
    ProtoEncoder e(16);  // tiny initial buffer: growth happens mid-message
    const size_t outer = e.BeginMessage(1);
    const size_t inner = e.BeginMessage(2);
    e.Raw(std::string(len, 'x'));
    e.EndMessage(inner);
    e.VarintField(3, 7);
    e.EndMessage(outer);

    ProtoDecoder d(e.view());
    ProtoField f;
    ASSERT_TRUE(d.Next(f)) << len;
    EXPECT_EQ(f.number, 1u);
    ASSERT_EQ(f.type, WireType::kLengthDelimited);
    ProtoDecoder in(f.bytes);
    ProtoField g;
    ASSERT_TRUE(in.Next(g));
    EXPECT_EQ(g.number, 2u);
    EXPECT_EQ(g.bytes.size(), len);
    EXPECT_EQ(g.bytes, std::string(len, 'x'));
    ASSERT_TRUE(in.Next(g));
    EXPECT_EQ(g.number, 3u);
    EXPECT_EQ(g.value, 7u);
    EXPECT_FALSE(in.Next(g));
    EXPECT_EQ(in.error(), nullptr);
    EXPECT_FALSE(d.Next(f));
    EXPECT_EQ(d.error(), nullptr);
  }
}

TEST(ProtoDecoder, RejectsTruncatedInput) {
  ProtoEncoder e;
  e.BytesField(1, "hello");
  e.Fixed64Field(2, 5);
  const std::string whole(e.view());
  const size_t boundary = 7;  // after the first field: a complete, shorter message
  for (size_t cut = 1; cut < whole.size(); ++cut) {
    if (cut == boundary) continue;
    ProtoDecoder d(std::string_view(whole).substr(0, cut));
    ProtoField f;
    while (d.Next(f)) {
    }
    EXPECT_NE(d.error(), nullptr) << "cut at " << cut;
  }
  ProtoDecoder bad(std::string_view("\x00\x01", 2));  // field number 0
  ProtoField f;
  EXPECT_FALSE(bad.Next(f));
  EXPECT_NE(bad.error(), nullptr);
}

}  // namespace
}  // namespace nsys::trace
