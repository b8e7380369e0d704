// The kernel-name conventions of the libraries that write most GPU time, as one table of families (kFamilies, first
// match wins) and a small decoder per family. Decoders read only what the convention encodes; anything else stays
// empty or unset.
#include "nsys/skills/kernel_names.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>
#include <variant>
#include <vector>

#include "nsys/engine/gpu_models.h"

namespace nsys::skills {
namespace {

using std::string_view;

// The demangled name split at the kernel function: `head` is its qualified name ("at::native::reduce_kernel"),
// `base` the last component ("reduce_kernel"), `rest` everything after the head (template arguments, parameters).
struct Parts {
  string_view full;
  string_view head;
  string_view base;
  string_view rest;
  string_view targs;  // the template arguments: `rest` up to the parameter list ("" when not a template)
};

bool Starts(string_view s, string_view p) {
  return s.substr(0, p.size()) == p;
}
bool Has(string_view s, string_view p) {
  return s.find(p) != string_view::npos;
}
bool HasNoCase(string_view s, string_view p) {
  auto it = std::search(s.begin(), s.end(), p.begin(), p.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
  return it != s.end();
}
bool IsIdent(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool IsDigits(string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

Parts Split(string_view name) {
  Parts p;
  p.full = name;
  if (Starts(name, "void ")) name.remove_prefix(5);
  size_t i = 0;
  while (i < name.size()) {
    if (Starts(name.substr(i), "<unnamed>")) {
      i += 9;
    } else if (Starts(name.substr(i), "(anonymous namespace)")) {
      i += 21;
    } else if (name[i] == '<' || name[i] == '(' || name[i] == ' ') {
      break;
    } else {
      ++i;
    }
  }
  p.head = name.substr(0, i);
  p.rest = name.substr(i);
  const size_t colon = p.head.rfind("::");
  p.base = colon == string_view::npos ? p.head : p.head.substr(colon + 2);
  int depth = 0;
  for (size_t j = 0; j < p.rest.size(); ++j) {
    const char c = p.rest[j];
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == '(' && depth == 0) {
      p.targs = p.rest.substr(0, j);
      break;
    }
  }
  return p;
}

std::vector<string_view> Tokens(string_view s, char sep = '_') {
  std::vector<string_view> out;
  size_t begin = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      if (i > begin) out.push_back(s.substr(begin, i - begin));
      begin = i + 1;
    }
  }
  return out;
}

// "128x256" -> {128, 256}; empty when the token is not sizes joined by 'x'.
std::vector<string_view> Sizes(string_view token) {
  std::vector<string_view> sizes = Tokens(token, 'x');
  if (sizes.size() < 2 || token.front() == 'x' || token.back() == 'x') return {};
  for (string_view s : sizes) {
    if (!IsDigits(s)) return {};
  }
  return sizes;
}

// ---- Data types as names spell them ----

struct Spelling {
  string_view text;
  string_view precision;
  bool floating;
};
// Longer spellings first where one contains another at a word boundary ("long long" before "long").
constexpr std::array kSpellings = {
    Spelling{"c10::BFloat16", "bf16", true},
    Spelling{"c10::Half", "fp16", true},
    Spelling{"c10::Float8_e4m3fn", "fp8", true},
    Spelling{"c10::Float8_e5m2", "fp8", true},
    Spelling{"__nv_bfloat16", "bf16", true},
    Spelling{"__nv_fp8_e4m3", "fp8", true},
    Spelling{"__nv_fp8_e5m2", "fp8", true},
    Spelling{"__bfloat", "bf16", true},
    Spelling{"__half", "fp16", true},
    Spelling{"bfloat16_t", "bf16", true},
    Spelling{"half_t", "fp16", true},
    Spelling{"tfloat32_t", "tf32", true},
    Spelling{"float_e4m3_t", "fp8", true},
    Spelling{"float_e5m2_t", "fp8", true},
    Spelling{"double", "fp64", true},
    Spelling{"float", "fp32", true},
    Spelling{"Float16", "fp16", true},
    Spelling{"Float32", "fp32", true},
    Spelling{"Float64", "fp64", true},
    Spelling{"long long", "int64", false},
    Spelling{"long", "int64", false},
    Spelling{"Int64", "int64", false},
    Spelling{"Int32", "int32", false},
    Spelling{"int", "int32", false},
    Spelling{"signed char", "int8", false},
    Spelling{"int8_t", "int8", false},
    Spelling{"unsigned char", "uint8", false},
    Spelling{"bool", "bool", false},
};

// Whether the occurrence of a type word at [pos, pos+len) is a value type: not part of a longer identifier, not a
// template value's cast ("(int)128") and not an unsigned index type ("unsigned int").
bool IsTypeAt(string_view s, size_t pos, size_t len) {
  const size_t end = pos + len;
  if (pos > 0 && (IsIdent(s[pos - 1]))) return false;
  if (end < s.size() && IsIdent(s[end])) return false;
  const bool cast = pos > 0 && s[pos - 1] == '(' && end + 1 < s.size() && s[end] == ')' &&
                    (std::isdigit(static_cast<unsigned char>(s[end + 1])) || s[end + 1] == '-');
  if (cast) return false;
  if (pos >= 9 && s.substr(pos - 9, 9) == "unsigned ") return false;
  return true;
}

// The precision of the earliest data type named in `s` (floating types only when asked), or "".
string_view FirstType(string_view s, bool floating_only) {
  size_t best = string_view::npos;
  string_view found;
  for (const Spelling& sp : kSpellings) {
    if (floating_only && !sp.floating) continue;
    for (size_t pos = s.find(sp.text); pos != string_view::npos && pos < best; pos = s.find(sp.text, pos + 1)) {
      if (IsTypeAt(s, pos, sp.text.size())) {
        best = pos;
        found = sp.precision;
        break;
      }
    }
  }
  return found;
}

// A BLAS-style type token ("f16", "bf16", "f32", "tf32", "e4m3", "i8", "fp16", "s8") as a precision, or "".
string_view PrecisionOfToken(string_view t) {
  static constexpr std::array<std::pair<string_view, string_view>, 16> kTokens = {{
      {"bf16", "bf16"},
      {"tf32", "tf32"},
      {"fp16", "fp16"},
      {"f16", "fp16"},
      {"fp32", "fp32"},
      {"f32", "fp32"},
      {"f64", "fp64"},
      {"fp64", "fp64"},
      {"e4m3", "fp8"},
      {"e5m2", "fp8"},
      {"fp8", "fp8"},
      {"f8", "fp8"},
      {"i8", "int8"},
      {"s8", "int8"},
      {"int8", "int8"},
      {"i32", "int32"},
  }};
  for (const auto& [prefix, precision] : kTokens) {
    if (Starts(t, prefix)) return precision;
  }
  return {};
}

// BLAS letters: s single, d double, h half, c/z complex, i int8 (cuBLAS and CUTLASS 2.x opcode names).
string_view PrecisionOfLetter(char c) {
  switch (c) {
    case 's':
    case 'c':
      return "fp32";
    case 'd':
    case 'z':
      return "fp64";
    case 'h':
      return "fp16";
    case 'i':
      return "int8";
    default:
      return {};
  }
}

// ---- Decoders, one per family ----

using Decoder = void (*)(const Parts&, KernelIdentity&);

void Set(KernelIdentity& id, string_view library, string_view category) {
  id.library = library;
  id.category = category;
}

// ncclDevKernel_AllReduce_Sum_bf16_RING_LL, ncclKernel_SendRecv_..., ncclDevKernel_SendRecv(...)
void DecodeNccl(const Parts& p, KernelIdentity& id) {
  Set(id, "NCCL", "collective");
  const std::vector<string_view> tokens = Tokens(p.base);
  if (tokens.size() > 1) id.operation = tokens[1];
  for (size_t i = 2; i < tokens.size() && id.precision.empty(); ++i) id.precision = PrecisionOfToken(tokens[i]);
  id.tensor_cores = false;
}

// A "MxN" token followed by a "KxStages" token, as CUTLASS 2.x and nvjet write tiles: "192x192", "64x4" -> 192x192x64.
std::string TileFromTokens(const std::vector<string_view>& tokens, size_t from) {
  for (size_t i = from; i < tokens.size(); ++i) {
    const std::vector<string_view> mn = Sizes(tokens[i]);
    if (mn.size() != 2) continue;
    if (i + 1 < tokens.size()) {
      const std::vector<string_view> ks = Sizes(tokens[i + 1]);
      if (ks.size() == 2) return fmt::format("{}x{}x{}", mn[0], mn[1], ks[0]);
    }
    return fmt::format("{}x{}", mn[0], mn[1]);
  }
  return {};
}

// nvjet_tst_192x192_64x3_1x2_h_bz_coopB_NTN: cuBLAS's generated Hopper/Blackwell GEMMs. The first letters are the
// types in cuBLAS's letter code (h fp16, t bf16, s fp32, q fp8, d fp64, i int8): A/B, then compute, then C.
void DecodeNvjet(const Parts& p, KernelIdentity& id) {
  Set(id, "cuBLAS", "gemm");
  const std::vector<string_view> tokens = Tokens(p.base);
  for (size_t i = 1; i < tokens.size(); ++i) {
    const string_view t = tokens[i];
    if (Starts(t, "sm") && IsDigits(t.substr(2))) continue;
    if (!std::all_of(t.begin(), t.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); })) break;
    switch (t.front()) {
      case 'q':
        id.precision = "fp8";
        id.tensor_cores = true;
        break;
      case 'h':
        id.precision = "fp16";
        id.tensor_cores = true;
        break;
      case 't':
        id.precision = "bf16";
        id.tensor_cores = true;
        break;
      case 'i':
        id.precision = "int8";
        id.tensor_cores = true;
        break;
      case 's':
        id.precision = "fp32";  // fp32 data may still run as TF32 on tensor cores: the name does not say
        break;
      case 'd':
        id.precision = "fp64";
        break;
      default:
        break;
    }
    break;
  }
  id.tile = TileFromTokens(tokens, 1);
}

void TensorCoresFromOpcode(string_view name, KernelIdentity& id) {
  if (Has(name, "ffma") || Has(name, "dfma") || Has(name, "hfma") || Has(name, "simt")) {
    id.tensor_cores = false;
  } else if (Has(name, "tensor") || Has(name, "hmma") || Has(name, "imma") || Has(name, "qmma") || Has(name, "gmma") ||
             Has(name, "warpgroup") || Has(name, "dmma")) {
    id.tensor_cores = true;
  }
}

string_view CategoryFromWords(string_view n);

// sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_..._cublas (cuBLAS GEMMs),
// sm80_xmma_fprop_implicit_gemm_..._cudnn (cuDNN convolutions) and the kernels TensorRT builds with it, whose names
// end in "_trt" (sm50_xmma_pooling_..._execute_kernel_trt), share NVIDIA's xmma generator.
void DecodeXmma(const Parts& p, KernelIdentity& id) {
  const string_view n = p.base;
  const bool conv = Has(n, "fprop") || Has(n, "dgrad") || Has(n, "wgrad") || Has(n, "conv");
  const bool gemm = Has(n, "gemm");
  if (n.size() > 4 && n.substr(n.size() - 4) == "_trt") {
    Set(id, "TensorRT", conv ? "conv" : gemm ? "gemm" : CategoryFromWords(n));
  } else {
    Set(id, conv || Has(n, "cudnn") ? "cuDNN" : (Has(n, "cublasLt") ? "cuBLASLt" : "cuBLAS"), conv ? "conv" : "gemm");
  }
  if (conv) id.operation = Has(n, "fprop") ? "fprop" : Has(n, "dgrad") ? "dgrad" : Has(n, "wgrad") ? "wgrad" : "";
  if (Has(n, "split_k")) id.operation = "split-K";
  const std::vector<string_view> tokens = Tokens(n);
  for (size_t i = 0; i + 1 < tokens.size() && id.precision.empty(); ++i) {
    if (tokens[i] == "gemm" || Starts(tokens[i], "gemm")) id.precision = PrecisionOfToken(tokens[i + 1]);
  }
  if (id.precision.empty()) {
    for (string_view t : tokens) {
      if (!(id.precision = PrecisionOfToken(t)).empty()) break;
    }
  }
  if (id.precision == "fp32" && Has(n, "tf32")) id.precision = "tf32";
  if (const size_t at = n.find("tilesize"); at != string_view::npos) {
    const string_view t = n.substr(at + 8);
    id.tile = t.substr(0, std::min(t.find('_'), t.size()));
  }
  TensorCoresFromOpcode(n, id);
}

// The opcode token of cuBLAS's pre-xmma and CUTLASS 2.x names: "sgemm" (SIMT), "s1688gemm" / "h16816gemm" /
// "d884gemm" / "i8816gemm" (tensor-core MMA shape digits), with an optional type token before it ("bf16", "fp16",
// "tf32", "i8"). Returns the token's index, or tokens.size().
size_t FindOpcode(const std::vector<string_view>& tokens, KernelIdentity& id) {
  for (size_t i = 0; i < tokens.size(); ++i) {
    string_view t = tokens[i];
    const bool gemm = t.size() > 4 && t.substr(t.size() - 4) == "gemm";
    const bool gemv = t.size() > 4 && t.substr(t.size() - 4) == "gemv";
    const bool conv = Has(t, "fprop") || Has(t, "dgrad") || Has(t, "wgrad");
    if (!gemm && !gemv && !conv) continue;
    id.category = conv ? "conv" : "gemm";
    if (gemv) id.operation = "gemv";
    const string_view shape = t.substr(1, t.size() - 5);
    const bool mma = gemm && IsDigits(shape);
    id.tensor_cores = mma;
    const string_view typed = i > 0 ? PrecisionOfToken(tokens[i - 1]) : string_view{};
    if (!typed.empty()) {
      id.precision = typed;
    } else if ((gemm || gemv) && t.size() >= 5) {
      id.precision = PrecisionOfLetter(t.front());
      // Tensor-core MMA on fp32 data is TF32 (Ampere and later): "s1688gemm" without a type token.
      if (mma && t.front() == 's') id.precision = "tf32";
    }
    return i;
  }
  return tokens.size();
}

// ampere_sgemm_32x128_tn, volta_h884gemm_64x64_ldg8_nn, ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_64x4_tn
void DecodeArchGemm(const Parts& p, KernelIdentity& id) {
  if (HasNoCase(p.base, "cudnn")) {
    Set(id, "cuDNN", "conv");
    TensorCoresFromOpcode(p.base, id);
    return;
  }
  Set(id, "cuBLAS", "gemm");
  const std::vector<string_view> tokens = Tokens(p.base);
  const size_t op = FindOpcode(tokens, id);
  // The first "MxN" after the opcode (an output type token may come between); "stages_64x4" comes later.
  for (size_t i = op + 1; i < tokens.size(); ++i) {
    const std::vector<string_view> mn = Sizes(tokens[i]);
    if (mn.size() != 2) continue;
    id.tile = fmt::format("{}x{}", mn[0], mn[1]);
    break;
  }
}

// cutlass::Kernel<cutlass_80_tensorop_d884gemm_32x32_16x5_nn_align1>(T1::Params) (CUTLASS 2.x: the name is the
// first template argument) and cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<...>> (3.x: types and the
// CTA tile shape are template arguments).
void DecodeCutlass(const Parts& p, KernelIdentity& id) {
  Set(id, "CUTLASS", "other");
  size_t at = p.full.find("cutlass_");
  if (at != string_view::npos) {
    string_view inner = p.full.substr(at);
    inner = inner.substr(0, std::find_if_not(inner.begin(), inner.end(), IsIdent) - inner.begin());
    const std::vector<string_view> tokens = Tokens(inner);
    const size_t op = FindOpcode(tokens, id);
    id.tile = TileFromTokens(tokens, op);
    if (Has(inner, "tensorop") || Has(inner, "wmma")) id.tensor_cores = true;
    if (Has(inner, "simt")) id.tensor_cores = false;
    return;
  }
  if (Has(p.full, "gemm::kernel") || Has(p.full, "Gemm")) id.category = "gemm";
  if (Has(p.full, "conv::kernel") || Has(p.full, "Conv")) id.category = "conv";
  id.precision = FirstType(p.rest, true);
  if ((at = p.full.find("cute::C<")) != string_view::npos) {
    std::vector<string_view> dims;
    for (; at != string_view::npos && dims.size() < 3; at = p.full.find("cute::C<", at + 1)) {
      const string_view d = p.full.substr(at + 8);
      dims.push_back(d.substr(0, d.find('>')));
      if (!IsDigits(dims.back())) dims.pop_back();
    }
    if (dims.size() == 3) id.tile = fmt::format("{}x{}x{}", dims[0], dims[1], dims[2]);
  }
  if (Has(p.full, "Gmma") || Has(p.full, "GMMA") || Has(p.full, "TensorOp") || Has(p.full, "Umma") ||
      Has(p.full, "UMMA")) {
    id.tensor_cores = true;
  } else if (Has(p.full, "Simt")) {
    id.tensor_cores = false;
  }
}

// flash::flash_fwd_kernel<Flash_fwd_kernel_traits<(int)HeadDim, (int)BlockM, (int)BlockN, (int)Warps, ...>>,
// flash_bwd_*, flash_fwd_splitkv_*, and FlashAttention-3's flash::FlashAttnFwdSm90 inside cutlass::device_kernel.
void DecodeFlash(const Parts& p, KernelIdentity& id) {
  Set(id, "FlashAttention", "attention");
  const string_view n = p.full;
  if (Has(n, "bwd") || Has(n, "Bwd")) {
    id.operation = "bwd";
  } else if (Has(n, "splitkv_combine")) {
    id.operation = "fwd split-KV combine";
  } else if (Has(n, "splitkv") || Has(n, "SplitKV")) {
    id.operation = "fwd split-KV";
  } else {
    id.operation = "fwd";
  }
  id.precision = FirstType(p.rest, true);
  if (const size_t at = n.find("_kernel_traits<"); at != string_view::npos) {
    std::vector<std::string> ints;
    string_view t = n.substr(at + 15);
    while (ints.size() < 3 && Starts(t, "(int)")) {
      t.remove_prefix(5);
      const size_t len = std::find_if_not(t.begin(), t.end(), [](char c) { return std::isdigit(c); }) - t.begin();
      ints.emplace_back(t.substr(0, len));
      t.remove_prefix(len);
      if (Starts(t, ", ")) t.remove_prefix(2);
    }
    if (ints.size() == 3) id.tile = ints[1] + "x" + ints[2];  // BlockM x BlockN; ints[0] is the head dimension
  }
  id.tensor_cores = true;
}

// fmha_cutlassF_bf16_aligned_64x64_rf_sm80 / fmha_cutlassB_...: the memory-efficient attention of xFormers, vendored
// into PyTorch's scaled_dot_product_attention (PyTorchMemEffAttention).
void DecodeMemEffAttention(const Parts& p, KernelIdentity& id) {
  Set(id, Has(p.full, "PyTorch") ? "PyTorch" : "xFormers", "attention");
  id.operation = Has(p.base, "cutlassB") ? "bwd" : "fwd";
  const std::vector<string_view> tokens = Tokens(p.base);
  for (string_view t : tokens) {
    if (!(id.precision = PrecisionOfToken(t)).empty()) break;
  }
  id.tile = TileFromTokens(tokens, 0);
  // fp32 runs on CUDA cores (SIMT); fp16/bf16 use tensor-core MMA.
  id.tensor_cores = id.precision == "fp16" || id.precision == "bf16";
}

// A category from keywords in the name, for libraries whose kernels are named after what they do.
string_view CategoryFromWords(string_view n) {
  if (HasNoCase(n, "softmax")) return "softmax";
  if (HasNoCase(n, "norm") || Starts(n, "bn_") || Has(n, "::bn_")) return "norm";
  if (HasNoCase(n, "sdpa") || HasNoCase(n, "attention") || HasNoCase(n, "fmha") || HasNoCase(n, "_mha")) {
    return "attention";
  }
  if (HasNoCase(n, "conv") || HasNoCase(n, "fprop") || HasNoCase(n, "dgrad") || HasNoCase(n, "wgrad") ||
      HasNoCase(n, "winograd") || HasNoCase(n, "fft2d") || HasNoCase(n, "implicit_gemm")) {
    return "conv";
  }
  if (HasNoCase(n, "gemm") || HasNoCase(n, "gemv") || HasNoCase(n, "matmul")) return "gemm";
  if (HasNoCase(n, "reduce") || HasNoCase(n, "reduction")) return "reduction";
  if (HasNoCase(n, "copy") || HasNoCase(n, "transpose") || HasNoCase(n, "nchwToNhwc") || HasNoCase(n, "nhwcToNchw") ||
      HasNoCase(n, "memcpy")) {
    return "copy";
  }
  if (HasNoCase(n, "elementwise") || HasNoCase(n, "pointwise")) return "elementwise";
  return "other";
}

void DecodeCudnn(const Parts& p, KernelIdentity& id) {
  Set(id, "cuDNN", CategoryFromWords(p.base));
  TensorCoresFromOpcode(p.base, id);
  id.precision = FirstType(p.rest, true);
}

// splitKreduce_kernel, gemv2T_kernel_val, gemmSN_TN_kernel, trsm_right_kernel, dot_kernel, ...: cuBLAS kernels named
// after the BLAS routine, running on CUDA cores.
void DecodeCublasRoutine(const Parts& p, KernelIdentity& id) {
  Set(id, Starts(p.head, "cublasLt") ? "cuBLASLt" : "cuBLAS", "other");
  const string_view b = p.base;
  if (Starts(b, "splitKreduce")) {
    id.category = "gemm";
    id.operation = "split-K reduce";
  } else if (Starts(b, "gemv") || Starts(b, "gemm")) {
    id.category = "gemm";
    id.operation = Starts(b, "gemv") ? "gemv" : "gemm";
  } else if (Starts(b, "dot") || Starts(b, "nrm2") || Starts(b, "asum") || Starts(b, "amax")) {
    id.category = "reduction";
    id.operation = b.substr(0, b.find('_'));
  } else if (Starts(b, "scal") || Starts(b, "axpy")) {
    id.category = "elementwise";
    id.operation = b.substr(0, b.find('_'));
  } else {
    id.operation = b.substr(0, b.find('_'));  // trsm, trmm, syrk, herk, symm, getrf
  }
  // The first template arguments of splitKreduce are sizes and an index type, so only floating types count.
  id.precision = FirstType(p.rest, true);
  id.tensor_cores = false;
}

// triton_poi_fused_add_mul_0 (Inductor: poi pointwise, red reduction, per persistent reduction, tem template).
void DecodeTriton(const Parts& p, KernelIdentity& id) {
  Set(id, "Triton", "other");
  const std::vector<string_view> tokens = Tokens(p.base);
  const string_view kind = tokens.size() > 1 ? tokens[1] : string_view{};
  std::string ops;
  for (size_t i = 2; i < tokens.size(); ++i) {
    if (tokens[i] == "fused" || IsDigits(tokens[i])) continue;
    ops += (ops.empty() ? "" : "_") + std::string(tokens[i]);
  }
  id.operation = ops;
  const string_view words = CategoryFromWords(p.base);
  if (kind == "poi") id.category = "elementwise";
  if (kind == "red" || kind == "per") id.category = "reduction";
  if (words == "softmax" || words == "norm") id.category = words;
  if (kind == "tem" || Has(p.base, "_mm") || Has(p.base, "_bmm") || Has(p.base, "conv")) {
    id.category = Has(p.base, "conv") ? "conv" : "gemm";
    return;  // Triton matmul templates use tensor cores for 16-bit inputs; the name does not say which inputs
  }
  if (id.category != "other") id.tensor_cores = false;
}

// nvfuser_pointwise_f0_c1_r0_g0, nvfuser_reduction_..., nvfuser_inner_persistent_..., nvfuser_matmul_...
void DecodeNvfuser(const Parts& p, KernelIdentity& id) {
  Set(id, "nvFuser", "other");
  const string_view b = p.base;
  const string_view kind = Starts(b, "nvfuser_") ? b.substr(8) : b;
  if (Starts(kind, "pointwise")) {
    id.category = "elementwise";
  } else if (Starts(kind, "reduction")) {
    id.category = "reduction";
  } else if (Has(kind, "persistent")) {
    id.category = "reduction";
    id.operation = std::string(kind.substr(0, kind.find("persistent") + 10));  // "inner_persistent", ...
  } else if (Starts(kind, "matmul")) {
    id.category = "gemm";
  } else if (Starts(kind, "transpose")) {
    id.category = "copy";
  }
  id.precision = FirstType(p.rest, true);
  id.tensor_cores = id.category == "gemm";
  if (id.category == "other") id.tensor_cores.reset();
}

// Identifiers in PyTorch's template arguments that are plumbing, not the operation.
bool IsPlumbing(string_view w) {
  static constexpr std::array<string_view, 44> kWords = {"void",
                                                         "unnamed",
                                                         "lambda",
                                                         "instance",
                                                         "operator",
                                                         "const",
                                                         "float",
                                                         "double",
                                                         "long",
                                                         "int",
                                                         "bool",
                                                         "char",
                                                         "unsigned",
                                                         "signed",
                                                         "at",
                                                         "native",
                                                         "c10",
                                                         "std",
                                                         "array",
                                                         "BinaryFunctor",
                                                         "AUnaryFunctor",
                                                         "BUnaryFunctor",
                                                         "func_wrapper_t",
                                                         "ReduceOp",
                                                         "gpu_kernel_impl",
                                                         "gpu_kernel_impl_nocast",
                                                         "TensorIteratorBase",
                                                         "TensorIterator",
                                                         "Scalar",
                                                         "Tensor",
                                                         "OpaqueType",
                                                         "TrivialOffsetCalculator",
                                                         "OffsetCalculator",
                                                         "memory",
                                                         "LoadWithCast",
                                                         "StoreWithCast",
                                                         "LoadWithoutCast",
                                                         "StoreWithoutCast",
                                                         "BFloat16",
                                                         "Half",
                                                         "CUDAGeneratorImpl",
                                                         "templates",
                                                         "cuda",
                                                         "anonymous"};
  if (w.size() == 2 && w[0] == 'T' && std::isdigit(static_cast<unsigned char>(w[1]))) return true;
  if (IsDigits(w)) return true;
  return std::find(kWords.begin(), kWords.end(), w) != kWords.end();
}

// "CUDAFunctor_add" -> "add", "MulFunctor" -> "mul", "GeluCUDAKernelImpl" -> "gelu", "log_kernel_cuda" -> "log".
std::string CleanOperation(string_view w) {
  for (string_view prefix : {"CUDAFunctorOnSelf_", "CUDAFunctor_"}) {
    if (Starts(w, prefix)) w.remove_prefix(prefix.size());
  }
  for (string_view suffix :
       {"_kernel_cuda", "_kernel_impl", "_cuda_out", "_kernel", "CUDAKernelImpl", "Functor", "_functor", "Ops"}) {
    if (w.size() > suffix.size() && w.substr(w.size() - suffix.size()) == suffix) {
      w.remove_suffix(suffix.size());
      break;
    }
  }
  std::string out;
  for (size_t i = 0; i < w.size(); ++i) {
    const char c = w[i];
    if (std::isupper(static_cast<unsigned char>(c))) {
      if (i > 0 && w[i - 1] != '_' && !std::isupper(static_cast<unsigned char>(w[i - 1]))) out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

// The operation inside a PyTorch kernel template: the first identifier in the template arguments that is neither
// a namespace nor plumbing (functor wrappers, iterators, types).
std::string PytorchFunctor(string_view rest) {
  for (size_t i = 0; i < rest.size();) {
    if (!IsIdent(rest[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < rest.size() && IsIdent(rest[j])) ++j;
    const string_view word = rest.substr(i, j - i);
    const bool is_namespace = rest.substr(j, 2) == "::";
    if (!is_namespace && !IsPlumbing(word) && !std::isdigit(static_cast<unsigned char>(word.front()))) {
      return CleanOperation(word);
    }
    i = j;
  }
  return {};
}

void DecodePytorch(const Parts& p, KernelIdentity& id) {
  Set(id, "PyTorch", "other");
  const string_view b = p.base;
  id.tensor_cores = false;
  id.precision = FirstType(p.targs.empty() ? p.rest : p.targs, false);
  if (HasNoCase(b, "softmax")) {
    id.category = "softmax";
    id.operation = HasNoCase(b, "backward") ? "bwd" : "fwd";
  } else if (HasNoCase(b, "norm") || Has(b, "GammaBeta")) {
    id.category = "norm";
    id.operation = std::string(HasNoCase(b, "layer")   ? "layer_norm"
                               : HasNoCase(b, "batch") ? "batch_norm"
                               : HasNoCase(b, "group") ? "group_norm"
                                                       : "norm") +
                   (HasNoCase(b, "backward") || HasNoCase(b, "grad") || Has(b, "GammaBeta") ? " bwd" : " fwd");
  } else if (Has(b, "CatArray")) {
    id.category = "copy";
    id.operation = "cat";
  } else if (Has(b, "reduce_kernel")) {
    id.category = "reduction";
    id.operation = PytorchFunctor(p.rest);
  } else if (Has(b, "loss")) {
    id.category = "reduction";
    id.operation = std::string(b.substr(0, b.find("_kernel")));
  } else if (Has(b, "elementwise") || Has(b, "multi_tensor_apply")) {
    id.category = "elementwise";
    id.operation = Has(b, "multi_tensor_apply") ? "multi_tensor_apply" : PytorchFunctor(p.rest);
    if (Has(b, "distribution")) id.operation = "random";
    if (Has(id.operation, "copy")) {
      id.category = "copy";
      id.operation = "copy";
    }
  } else if (Has(b, "gather") || Has(b, "scatter") || Has(b, "index") || Has(b, "Index")) {
    id.category = "elementwise";
    id.operation = CleanOperation(b);
  } else {
    id.operation = CleanOperation(b);
    id.category = CategoryFromWords(b);
    if (id.category == "gemm") id.tensor_cores.reset();
  }
}

void DecodeCub(const Parts& p, KernelIdentity& id) {
  Set(id, Starts(p.head, "thrust") ? "Thrust" : "CUB", "other");
  const string_view b = p.base;
  if (Has(b, "Reduce")) {
    id.category = "reduction";
  } else if (Has(b, "Sort")) {
    id.operation = "sort";
  } else if (Has(b, "Scan")) {
    id.operation = "scan";
  } else if (Has(p.full, "for_each") || Has(p.full, "transform") || Has(p.full, "fill")) {
    id.category = "elementwise";
  } else if (Has(p.full, "copy")) {
    id.category = "copy";
  }
  id.precision = FirstType(p.rest, false);
  id.tensor_cores = false;
}

void DecodeByWords(string_view library, const Parts& p, KernelIdentity& id) {
  Set(id, library, CategoryFromWords(p.base));
  TensorCoresFromOpcode(p.base, id);
}
void DecodeTensorRt(const Parts& p, KernelIdentity& id) {
  DecodeByWords("TensorRT", p, id);
}
void DecodeTransformerEngine(const Parts& p, KernelIdentity& id) {
  DecodeByWords("Transformer Engine", p, id);
  id.operation = CleanOperation(p.base);
  id.precision = FirstType(p.rest, true);
}
void DecodeCopyKernel(const Parts& p, KernelIdentity& id) {
  Set(id, "CUDA runtime", "copy");
  id.operation = HasNoCase(p.base, "memset") ? "memset" : "memcpy";
  id.tensor_cores = false;
}
// Julia's CUDA.jl compiles user functions; arrays are CuDeviceArray<T, ...>.
void DecodeJulia(const Parts& p, KernelIdentity& id) {
  Set(id, "CUDA.jl", "other");
  string_view b = p.base;
  while (!b.empty() && b.back() == '_') b.remove_suffix(1);
  id.operation = b;
  id.precision = FirstType(p.rest, false);
}

// cuFFT's own kernels: regular_fft<...>, vector_fft_r2c<...>, vector_fft_c2r<...>, composite_2way_fft<...>, and the
// radix kernels of older releases (spRadix0064B::kernel1Mem, dpVector0256D::kernelTex).
void DecodeCufft(const Parts& p, KernelIdentity& id) {
  Set(id, "cuFFT", "fft");
  const string_view b = Starts(p.head, "sp") || Starts(p.head, "dp") ? p.head.substr(0, p.head.find("::")) : p.base;
  if (Has(b, "r2c")) id.operation = "r2c";
  if (Has(b, "c2r")) id.operation = "c2r";
  if (Has(b, "c2c")) id.operation = "c2c";
  id.precision = Starts(b, "dp") ? "fp64" : Starts(b, "sp") ? "fp32" : FirstType(p.targs, true);
  id.tensor_cores = false;
}

// An HLO instruction's name without its number ("convert_2" -> "convert"), and whether it had one.
std::pair<string_view, bool> WithoutInstructionNumber(string_view b) {
  const size_t last = b.rfind('_');
  if (last == string_view::npos || !IsDigits(b.substr(last + 1))) return {b, false};
  return {b.substr(0, last), true};
}

// XLA names each kernel of a compiled program after its HLO instruction: "fusion", "fusion_4", "loop_add_fusion",
// "input_reduce_fusion_2", "wrapped_convert", or an opcode with the instruction's number, "convert_2",
// "concatenate_3", "shift_right_logical_3" (HLO writes "convert.2"; the GPU backend makes it an identifier). Such
// names carry no parameter list: XLA emits PTX, not C++.
bool IsXlaInstructionName(const Parts& p) {
  static constexpr std::array<string_view, 48> kOpcodes = {"abs",
                                                           "add",
                                                           "and",
                                                           "atan2",
                                                           "bitcast_convert",
                                                           "broadcast",
                                                           "cbrt",
                                                           "ceil",
                                                           "clamp",
                                                           "compare",
                                                           "concatenate",
                                                           "convert",
                                                           "copy",
                                                           "cosine",
                                                           "divide",
                                                           "dynamic_slice",
                                                           "dynamic_update_slice",
                                                           "exponential",
                                                           "exponential_minus_one",
                                                           "floor",
                                                           "gather",
                                                           "iota",
                                                           "log",
                                                           "log_plus_one",
                                                           "logistic",
                                                           "maximum",
                                                           "minimum",
                                                           "multiply",
                                                           "negate",
                                                           "not",
                                                           "or",
                                                           "pad",
                                                           "power",
                                                           "reduce",
                                                           "reduce_window",
                                                           "remainder",
                                                           "reverse",
                                                           "rsqrt",
                                                           "scatter",
                                                           "select",
                                                           "shift_left",
                                                           "shift_right_arithmetic",
                                                           "shift_right_logical",
                                                           "sine",
                                                           "slice",
                                                           "sqrt",
                                                           "subtract",
                                                           "tanh"};
  if (p.full != p.base || p.base.empty()) return false;  // no namespace, template or parameter list
  const auto [b, numbered] = WithoutInstructionNumber(p.base);
  if (b == "fusion" || (b.size() > 7 && b.substr(b.size() - 7) == "_fusion") || Starts(b, "wrapped_")) return true;
  return numbered && std::find(kOpcodes.begin(), kOpcodes.end(), b) != kOpcodes.end();
}

// The kind of work of an HLO instruction: reductions, copies, data movement ("other": concatenate, slice, pad,
// gather, ...), and elementwise arithmetic, which is also what XLA's loop fusions are.
void DecodeXla(const Parts& p, KernelIdentity& id) {
  static constexpr std::array<string_view, 10> kMovement = {
      "concatenate", "slice",     "dynamic_slice", "dynamic_update_slice", "pad", "gather", "scatter",
      "reverse",     "broadcast", "iota"};
  const string_view b = WithoutInstructionNumber(p.base).first;
  const bool moves = std::find(kMovement.begin(), kMovement.end(), b) != kMovement.end();
  Set(id, "XLA",
      Has(b, "reduce")                     ? "reduction"
      : b == "copy" || Has(b, "transpose") ? "copy"
      : moves                              ? "other"
                                           : "elementwise");
  if (b != "fusion") id.operation = b;
}

// JAX's own kernels (jax::<unnamed>::ThreeFry2x32Kernel, jaxlib's random bits) run only as custom calls inside the
// XLA program that launches them: a JAX profile's kernels are all XLA's, as its readers count them.
void DecodeJax(const Parts& p, KernelIdentity& id) {
  Set(id, "XLA", CategoryFromWords(p.base));
  id.operation = p.base;
  id.tensor_cores = false;
}

// ---- The table ----

enum class Match : uint8_t { kBasePrefix, kHeadPrefix, kContains, kXlaInstruction };
struct Family {
  Match how;
  string_view pattern;
  Decoder decode;
};

// First match wins, so specific families come before ones whose patterns they contain: FlashAttention before CUTLASS
// (its kernels carry cutlass:: types), xmma before cuDNN (xmma convolutions end in "_cudnn").
constexpr std::array kFamilies = {
    Family{Match::kBasePrefix, "nccl", DecodeNccl},
    Family{Match::kContains, "flash::", DecodeFlash},
    Family{Match::kBasePrefix, "flash_fwd", DecodeFlash},
    Family{Match::kBasePrefix, "flash_bwd", DecodeFlash},
    Family{Match::kContains, "FlashAttn", DecodeFlash},
    Family{Match::kBasePrefix, "fmha_cutlass", DecodeMemEffAttention},
    Family{Match::kBasePrefix, "nvjet_", DecodeNvjet},
    Family{Match::kContains, "_xmma_", DecodeXmma},
    Family{Match::kContains, "cudnn", DecodeCudnn},
    Family{Match::kBasePrefix, "implicit_convolve", DecodeCudnn},
    Family{Match::kBasePrefix, "explicit_convolve", DecodeCudnn},
    Family{Match::kBasePrefix, "precomputed_convolve", DecodeCudnn},
    Family{Match::kBasePrefix, "fft2d_", DecodeCudnn},
    Family{Match::kContains, "inograd", DecodeCudnn},
    Family{Match::kBasePrefix, "nchwToNhwc", DecodeCudnn},
    Family{Match::kBasePrefix, "nhwcToNchw", DecodeCudnn},
    Family{Match::kHeadPrefix, "cutlass::", DecodeCutlass},
    Family{Match::kBasePrefix, "cutlass_", DecodeCutlass},
    Family{Match::kBasePrefix, "maxwell_", DecodeArchGemm},
    Family{Match::kBasePrefix, "pascal_", DecodeArchGemm},
    Family{Match::kBasePrefix, "volta_", DecodeArchGemm},
    Family{Match::kBasePrefix, "turing_", DecodeArchGemm},
    Family{Match::kBasePrefix, "ampere_", DecodeArchGemm},
    Family{Match::kBasePrefix, "hopper_", DecodeArchGemm},
    Family{Match::kHeadPrefix, "cublasLt::", DecodeCublasRoutine},
    Family{Match::kBasePrefix, "splitKreduce_kernel", DecodeCublasRoutine},
    Family{Match::kBasePrefix, "gemv", DecodeCublasRoutine},
    Family{Match::kBasePrefix, "gemmSN", DecodeCublasRoutine},
    Family{Match::kBasePrefix, "gemmk1", DecodeCublasRoutine},
    Family{Match::kBasePrefix, "trsm_", DecodeCublasRoutine},
    Family{Match::kBasePrefix, "trmm_", DecodeCublasRoutine},
    Family{Match::kBasePrefix, "syrk_", DecodeCublasRoutine},
    Family{Match::kBasePrefix, "dot_kernel", DecodeCublasRoutine},
    Family{Match::kBasePrefix, "scal_kernel", DecodeCublasRoutine},
    Family{Match::kBasePrefix, "axpy_kernel", DecodeCublasRoutine},
    Family{Match::kBasePrefix, "nrm2_kernel", DecodeCublasRoutine},
    Family{Match::kBasePrefix, "triton_", DecodeTriton},
    Family{Match::kBasePrefix, "nvfuser_", DecodeNvfuser},
    Family{Match::kContains, "CudaCodeGen::kernel", DecodeNvfuser},
    Family{Match::kHeadPrefix, "transformer_engine::", DecodeTransformerEngine},
    Family{Match::kContains, "at::native::", DecodePytorch},
    Family{Match::kContains, "at::cuda::", DecodePytorch},
    Family{Match::kContains, "c10::", DecodePytorch},
    Family{Match::kBasePrefix, "softmax_warp_", DecodePytorch},
    Family{Match::kBasePrefix, "cunn_", DecodePytorch},
    Family{Match::kBasePrefix, "multi_tensor_apply_kernel", DecodePytorch},
    Family{Match::kHeadPrefix, "cub::", DecodeCub},
    Family{Match::kHeadPrefix, "thrust::", DecodeCub},
    Family{Match::kContains, "nvinfer1::", DecodeTensorRt},
    Family{Match::kBasePrefix, "trt_", DecodeTensorRt},
    Family{Match::kContains, "CuDeviceArray", DecodeJulia},
    Family{Match::kBasePrefix, "memcpy", DecodeCopyKernel},
    Family{Match::kBasePrefix, "memset", DecodeCopyKernel},
    Family{Match::kBasePrefix, "__memcpy", DecodeCopyKernel},
    Family{Match::kBasePrefix, "cudaMemcpy", DecodeCopyKernel},
    Family{Match::kBasePrefix, "regular_fft", DecodeCufft},
    Family{Match::kBasePrefix, "vector_fft", DecodeCufft},
    Family{Match::kBasePrefix, "composite_2way_fft", DecodeCufft},
    Family{Match::kHeadPrefix, "spRadix", DecodeCufft},
    Family{Match::kHeadPrefix, "dpRadix", DecodeCufft},
    Family{Match::kHeadPrefix, "spVector", DecodeCufft},
    Family{Match::kHeadPrefix, "dpVector", DecodeCufft},
    Family{Match::kHeadPrefix, "jax::", DecodeJax},
    Family{Match::kXlaInstruction, "", DecodeXla},
};

// Every library a row above names, for the words that ask for one ("the cuFFT kernels", "XLA's fusions").
constexpr std::array<string_view, 17> kLibraries = {
    "NCCL",    "FlashAttention", "PyTorch", "cuBLAS",   "cuBLASLt",           "cuDNN",   "CUTLASS",      "Triton",
    "nvFuser", "Thrust",         "CUB",     "TensorRT", "Transformer Engine", "CUDA.jl", "CUDA runtime", "cuFFT",
    "XLA"};

bool Matches(const Family& f, const Parts& p) {
  switch (f.how) {
    case Match::kBasePrefix:
      return Starts(p.base, f.pattern);
    case Match::kHeadPrefix:
      return Starts(p.head, f.pattern);
    case Match::kContains:
      return Has(p.full, f.pattern);
    case Match::kXlaInstruction:
      return IsXlaInstructionName(p);
  }
  return false;
}

string_view CategoryNoun(string_view category) {
  static constexpr std::array<std::pair<string_view, string_view>, 11> kNouns = {{
      {"gemm", "GEMM (matrix multiply)"},
      {"conv", "convolution"},
      {"attention", "attention"},
      {"elementwise", "elementwise kernel"},
      {"reduction", "reduction"},
      {"softmax", "softmax"},
      {"norm", "normalization"},
      {"collective", "collective"},
      {"copy", "copy kernel"},
      {"fft", "FFT"},
      {"other", "kernel"},
  }};
  for (const auto& [c, noun] : kNouns) {
    if (c == category) return noun;
  }
  return "kernel";
}

std::string Summary(const KernelIdentity& id) {
  if (id.library.empty() && id.category == "other") {
    return "Unknown kernel family: the name follows no library convention this tool knows.";
  }
  std::string s = fmt::format("{} {}", id.library.empty() ? "Unknown-library" : id.library, CategoryNoun(id.category));
  if (!id.operation.empty()) s += fmt::format(" ({})", id.operation);
  if (!id.precision.empty()) s += ", " + id.precision;
  if (!id.tile.empty()) s += ", tile " + id.tile;
  if (id.tensor_cores.has_value()) s += *id.tensor_cores ? ", on tensor cores" : ", on CUDA cores (no tensor cores)";
  return s;
}

}  // namespace

KernelIdentity DecodeKernelName(std::string_view demangled) {
  const Parts parts = Split(demangled);
  KernelIdentity id;
  id.category = "other";
  for (const Family& f : kFamilies) {
    if (Matches(f, parts)) {
      f.decode(parts, id);
      break;
    }
  }
  if (id.library.empty()) id.category = CategoryFromWords(parts.base);
  id.summary = Summary(id);
  return id;
}

std::vector<GpuArch> ReadGpuArch(const engine::Profile& profile, const CancelToken& cancel) {
  std::vector<GpuArch> gpus;
  if (profile.info().caps.gpu_info) {
    // Older schemas lack the limit columns: the query fails and the devices' facts below stand in.
    auto result = profile.Query(
        "SELECT id, name, computeMajor, computeMinor, smCount, maxWarpsPerSm, maxBlocksPerSm, maxRegistersPerSm, "
        "maxShmemPerSm, threadsPerWarp FROM TARGET_INFO_GPU ORDER BY id",
        cancel);
    auto num = [](const Value& v) -> int64_t {
      if (const auto* i = std::get_if<int64_t>(&v)) return *i;
      return 0;
    };
    for (const std::vector<Value>& row : result ? result->rows : std::vector<std::vector<Value>>{}) {
      if (row.size() < 10) continue;
      GpuArch g;
      g.device = static_cast<int32_t>(num(row[0]));
      if (const auto* s = std::get_if<std::string>(&row[1])) g.name = *s;
      g.compute_major = static_cast<int32_t>(num(row[2]));
      g.compute_minor = static_cast<int32_t>(num(row[3]));
      g.sm_count = static_cast<int32_t>(num(row[4]));
      g.max_warps_per_sm = static_cast<int32_t>(num(row[5]));
      g.max_blocks_per_sm = static_cast<int32_t>(num(row[6]));
      g.max_registers_per_sm = static_cast<int32_t>(num(row[7]));
      g.max_shared_memory_per_sm = num(row[8]);
      if (num(row[9]) > 0) g.warp_size = static_cast<int32_t>(num(row[9]));
      gpus.push_back(std::move(g));
    }
  }
  // What the table left unsaid (old exports: no limit columns, or the facts only in TARGET_INFO_CUDA_GPU or in the
  // GPU's model): the device's SMs and compute capability, and that capability's per-SM limits.
  for (const engine::Device& d : profile.info().devices) {
    auto it = std::find_if(gpus.begin(), gpus.end(), [&](const GpuArch& g) { return g.device == d.id; });
    if (it == gpus.end()) {
      if (d.name.empty() && d.sm_count <= 0 && d.compute_major <= 0) continue;
      it = gpus.insert(
          std::upper_bound(gpus.begin(), gpus.end(), d.id, [](int32_t id, const GpuArch& g) { return id < g.device; }),
          GpuArch{.device = d.id, .name = d.name});
    }
    GpuArch& g = *it;
    if (g.sm_count <= 0) g.sm_count = d.sm_count;
    if (g.compute_major <= 0) g.compute_major = d.compute_major, g.compute_minor = d.compute_minor;
    const std::optional<engine::SmLimits> limits = engine::SmLimitsOf(g.compute_major, g.compute_minor);
    if (!limits) continue;
    if (g.max_warps_per_sm <= 0) g.max_warps_per_sm = limits->max_warps;
    if (g.max_blocks_per_sm <= 0) g.max_blocks_per_sm = limits->max_blocks;
    if (g.max_registers_per_sm <= 0) g.max_registers_per_sm = limits->max_registers;
    if (g.max_shared_memory_per_sm <= 0) g.max_shared_memory_per_sm = limits->max_shared_memory;
  }
  return gpus;
}

// Tensor-core generations by compute capability (CUDA C++ Programming Guide, "Compute Capabilities"): Volta 7.0
// FP16; Turing 7.5 adds INT8/INT4; Ampere 8.0 adds BF16, TF32 and FP64; Ada 8.9 and Hopper 9.0 add FP8.
std::string TensorCoreSupport(const GpuArch& gpu) {
  const int cc = gpu.compute_major * 10 + gpu.compute_minor;
  const std::string what = fmt::format("compute capability {}.{}", gpu.compute_major, gpu.compute_minor);
  if (gpu.compute_major == 0) return "compute capability unknown";
  if (cc < 70) return what + ": no tensor cores";
  if (cc < 75) return what + ": tensor cores for FP16";
  if (cc < 80) return what + ": tensor cores for FP16 and INT8";
  if (cc < 89) return what + ": tensor cores for FP16, BF16, TF32, INT8" + (cc == 80 ? " and FP64" : "");
  return what + ": tensor cores for FP8, FP16, BF16, TF32, INT8" + (cc == 90 ? " and FP64" : "");
}

std::span<const std::string_view> KernelLibraries() {
  return kLibraries;
}

std::string_view TensorCoreWord(const std::optional<bool>& tensor_cores) {
  if (!tensor_cores.has_value()) return "unknown";
  return *tensor_cores ? "yes" : "no";
}

}  // namespace nsys::skills
