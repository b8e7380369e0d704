#include "nsys/support/sha256.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>

namespace nsys::support {
namespace {

// FIPS 180-4 / NIST CSRC example vectors.
TEST(Sha256, KnownVectors) {
  EXPECT_EQ(Sha256::Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256::Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256::Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(
      Sha256::Hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                  "mnopqrstnopqrstu"),
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, MillionAsInUnevenChunks) {
  Sha256 hasher;
  const std::string block(997, 'a');  // prime-sized chunks cross every 64-byte boundary position
  size_t fed = 0;
  while (fed + block.size() <= 1000000) {
    hasher.Update(block);
    fed += block.size();
  }
  hasher.Update(std::string(1000000 - fed, 'a'));
  EXPECT_EQ(hasher.FinishHex(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PaddingBoundaries) {
  // 55, 56 and 64 bytes: the length fits in the last block, needs an extra block, fills a block exactly.
  EXPECT_EQ(Sha256::Hex(std::string(55, 'a')), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  EXPECT_EQ(Sha256::Hex(std::string(56, 'a')), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  EXPECT_EQ(Sha256::Hex(std::string(64, 'a')), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
  Sha256 reused;
  reused.Update("abc");
  reused.FinishHex();
  reused.Reset();
  reused.Update("abc");
  EXPECT_EQ(reused.FinishHex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// The SHA-NI path (when this CPU has it) and the portable one agree on every length and chunking.
TEST(Sha256, HardwareAndPortablePathsAgree) {
  std::string data(1 << 20, '\0');
  uint64_t x = 88172645463325252ull;
  for (auto& c : data) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    c = static_cast<char>(x);
  }
  for (size_t len : {0u, 1u, 55u, 56u, 63u, 64u, 65u, 127u, 128u, 1000u, 4096u, 65537u, 1u << 20}) {
    Sha256 hardware(true), portable(false);
    EXPECT_FALSE(portable.hardware());
    size_t step = 1;
    for (size_t at = 0; at < len; at += step, step = step * 3 + 1) {
      const std::string_view piece = std::string_view(data).substr(at, std::min(step, len - at));
      hardware.Update(piece);
      portable.Update(piece);
    }
    EXPECT_EQ(hardware.FinishHex(), portable.FinishHex()) << len;
  }
  if (!Sha256::HardwareAvailable()) GTEST_SKIP() << "no SHA extensions on this CPU: only the portable path ran";
  EXPECT_TRUE(Sha256(true).hardware());
  Sha256 abc(true);
  abc.Update("abc");
  EXPECT_EQ(abc.FinishHex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace
}  // namespace nsys::support
