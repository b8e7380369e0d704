#pragma once
// Hand-written protobuf wire format: a growable encoder for building packets in place, and a bounds-checked
// decoder for reading them back (the validator, tests). No protobuf library: the trace writer only needs
// varints, fixed64, doubles and length-delimited fields, and encoding them by hand keeps the hot loop tight.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace nsys::trace {

enum class WireType : uint8_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

inline constexpr size_t VarintSize(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

// Appends fields to a byte buffer. Nested messages reserve one length byte and widen it on close when the
// message turned out to be 128 bytes or longer, so the common small message costs no copy.
class ProtoEncoder {
 public:
  explicit ProtoEncoder(size_t reserve = 4096) { bytes_.resize(reserve); }

  void Clear() { size_ = 0; }
  size_t size() const { return size_; }
  const uint8_t* data() const { return bytes_.data(); }
  std::string_view view() const { return {reinterpret_cast<const char*>(bytes_.data()), size_}; }

  [[gnu::always_inline]] void Varint(uint64_t v) {
    Ensure(10);
    uint8_t* p = bytes_.data() + size_;
    while (v >= 0x80) {
      *p++ = static_cast<uint8_t>(v | 0x80);
      v >>= 7;
    }
    *p++ = static_cast<uint8_t>(v);
    size_ = static_cast<size_t>(p - bytes_.data());
  }
  void Tag(uint32_t field, WireType type) { Varint((static_cast<uint64_t>(field) << 3) | static_cast<uint8_t>(type)); }
  void VarintField(uint32_t field, uint64_t v) {
    Tag(field, WireType::kVarint);
    Varint(v);
  }
  // int32/int64 fields: negative values are sign-extended to 64 bits (10 bytes), as protobuf requires.
  void IntField(uint32_t field, int64_t v) { VarintField(field, static_cast<uint64_t>(v)); }
  void BoolField(uint32_t field, bool v) { VarintField(field, v ? 1 : 0); }
  void Fixed64Field(uint32_t field, uint64_t v) {
    Tag(field, WireType::kFixed64);
    Ensure(8);
    for (int i = 0; i < 8; ++i) bytes_[size_++] = static_cast<uint8_t>(v >> (8 * i));
  }
  void DoubleField(uint32_t field, double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    Fixed64Field(field, bits);
  }
  void BytesField(uint32_t field, std::string_view s) {
    Tag(field, WireType::kLengthDelimited);
    Varint(s.size());
    Raw(s);
  }
  void Raw(std::string_view s) {
    Ensure(s.size());
    if (!s.empty()) std::memcpy(bytes_.data() + size_, s.data(), s.size());
    size_ += s.size();
  }

  // Opens a length-delimited field; returns the bookmark to pass to EndMessage.
  size_t BeginMessage(uint32_t field) {
    Tag(field, WireType::kLengthDelimited);
    Ensure(1);
    return size_++;
  }
  void EndMessage(size_t bookmark) {
    const size_t len = size_ - bookmark - 1;
    if (len < 0x80) {
      bytes_[bookmark] = static_cast<uint8_t>(len);
      return;
    }
    const size_t width = VarintSize(len);
    Ensure(width - 1);
    uint8_t* body = bytes_.data() + bookmark + 1;
    std::memmove(body + width - 1, body, len);
    uint8_t* p = bytes_.data() + bookmark;
    uint64_t v = len;
    while (v >= 0x80) {
      *p++ = static_cast<uint8_t>(v | 0x80);
      v >>= 7;
    }
    *p = static_cast<uint8_t>(v);
    size_ += width - 1;
  }

 private:
  void Ensure(size_t n) {
    if (__builtin_expect(size_ + n > bytes_.size(), 0)) Grow(n);
  }
  // Out of line: the hot path above stays small enough to inline into every field write.
  [[gnu::noinline]] void Grow(size_t n) { bytes_.resize(std::max(bytes_.size() * 2, size_ + n)); }

  std::vector<uint8_t> bytes_;
  size_t size_ = 0;
};

// One decoded field. For length-delimited fields `bytes` is the payload; otherwise `value` holds the varint or
// the raw little-endian fixed bits.
struct ProtoField {
  uint32_t number = 0;
  WireType type = WireType::kVarint;
  uint64_t value = 0;
  std::string_view bytes;
  double AsDouble() const {
    double d;
    std::memcpy(&d, &value, sizeof d);
    return d;
  }
};

// Iterates the fields of one message. Next() returns false at the end or on malformed input; check error().
class ProtoDecoder {
 public:
  explicit ProtoDecoder(std::string_view bytes) : p_(bytes.data()), end_(bytes.data() + bytes.size()) {}

  bool Next(ProtoField& field) {
    if (p_ == end_ || error_) return false;
    uint64_t key;
    if (!ReadVarint(key)) return Fail("truncated field key");
    field.number = static_cast<uint32_t>(key >> 3);
    if (field.number == 0) return Fail("field number 0");
    field.type = static_cast<WireType>(key & 7);
    field.bytes = {};
    switch (field.type) {
      case WireType::kVarint:
        if (!ReadVarint(field.value)) return Fail("truncated varint");
        return true;
      case WireType::kFixed64:
        if (end_ - p_ < 8) return Fail("truncated fixed64");
        field.value = 0;
        for (int i = 0; i < 8; ++i) field.value |= static_cast<uint64_t>(static_cast<uint8_t>(p_[i])) << (8 * i);
        p_ += 8;
        return true;
      case WireType::kFixed32:
        if (end_ - p_ < 4) return Fail("truncated fixed32");
        field.value = 0;
        for (int i = 0; i < 4; ++i) field.value |= static_cast<uint64_t>(static_cast<uint8_t>(p_[i])) << (8 * i);
        p_ += 4;
        return true;
      case WireType::kLengthDelimited: {
        uint64_t len;
        if (!ReadVarint(len)) return Fail("truncated length");
        if (len > static_cast<uint64_t>(end_ - p_)) return Fail("length-delimited field runs past its message");
        field.bytes = std::string_view(p_, len);
        p_ += len;
        return true;
      }
    }
    return Fail("unsupported wire type");
  }

  const char* error() const { return error_; }

 private:
  bool ReadVarint(uint64_t& out) {
    out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ == end_) return false;
      const uint8_t b = static_cast<uint8_t>(*p_++);
      out |= static_cast<uint64_t>(b & 0x7F) << shift;
      if ((b & 0x80) == 0) return true;
    }
    return false;
  }
  bool Fail(const char* why) {
    error_ = why;
    return false;
  }

  const char* p_;
  const char* end_;
  const char* error_ = nullptr;
};

}  // namespace nsys::trace
