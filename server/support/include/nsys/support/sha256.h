#pragma once
// SHA-256 (FIPS 180-4), incremental, so that a trace streamed in chunks can be hashed as it goes.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace nsys::support {

class Sha256 {
 public:
  // Uses the CPU's SHA extensions (x86 SHA-NI) when present, unless `allow_hardware` is false (tests compare both).
  explicit Sha256(bool allow_hardware = true);
  void Reset();
  void Update(std::string_view bytes);
  std::array<uint8_t, 32> Finish();  // the hasher must be Reset() before reuse
  std::string FinishHex();           // lower-case hex

  static std::string Hex(std::string_view bytes);  // one-shot convenience
  static bool HardwareAvailable();
  bool hardware() const { return hardware_; }

 private:
  void Blocks(const uint8_t* data, size_t count);

  std::array<uint32_t, 8> state_{};
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
  bool hardware_ = false;
};

}  // namespace nsys::support
