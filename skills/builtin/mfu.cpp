// mfu: model FLOPs utilization from model arguments, the step time (given or detected) and a versioned GPU
// peak table. MFU = tokens/s x (6N + 12·L·H·Q·T) / (n_gpu x dense peak); with recompute also HFU.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common_gpu_ops.h"
#include "common_gpu_peaks.h"
#include "common_iterations.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

Error Invalid(const std::string& message) {
  return MakeError(ErrorKind::kInvalidArgument, message);
}

ArgSpec Opt(const char* name, ValueType type, const char* description, Value def = Value(),
            std::vector<std::string> choices = {}) {
  return ArgSpec{name, type, description, std::move(def), false, std::move(choices)};
}

class MfuSkill final : public Skill {
 public:
  std::string name() const override { return "mfu"; }
  std::string description() const override {
    return "Model FLOPs utilization (and HFU with recompute) from model size, tokens and step time, against a "
           "versioned dense GPU peak table.";
  }
  std::vector<ArgSpec> args() const override {
    return {
        ArgSpec{"params", ValueType::kDouble, "Model parameters N (e.g. 7e9).", Value(), true, {}},
        Opt("tokens_per_step", ValueType::kDouble, "Tokens per training step, global (all n_gpu GPUs)."),
        Opt("tokens_per_s", ValueType::kDouble, "Global tokens per second; replaces tokens_per_step and step time."),
        Opt("step_time_s", ValueType::kDouble, "Seconds per step; default: the median detected iteration."),
        Opt("layers", ValueType::kInt, "Transformer layers L (for the attention term)."),
        Opt("hidden", ValueType::kInt, "Model width H·Q = heads x head_dim (for the attention term)."),
        Opt("heads", ValueType::kInt, "Attention heads H (with head_dim, instead of hidden)."),
        Opt("head_dim", ValueType::kInt, "Head dimension Q (with heads, instead of hidden)."),
        Opt("seq", ValueType::kInt, "Sequence length T (for the attention term)."),
        Opt("dtype", ValueType::kString, "Tensor dtype whose dense peak is the denominator.",
            Value(std::string("bf16")), {"bf16", "fp16", "fp8", "tf32"}),
        Opt("n_gpu", ValueType::kInt, "GPUs the tokens are spread over; default: the devices in the profile."),
        Opt("recompute", ValueType::kBool, "Full activation recompute: also report HFU, counting the extra forward.",
            Value(false)),
        Opt("gpu", ValueType::kString,
            "GPU model for the peak table (e.g. \"H100 SXM\") when the profile has no name."),
        Opt("peak_tflops", ValueType::kDouble, "Dense peak TFLOP/s per GPU; overrides the table."),
        Opt("marker", ValueType::kString, "NVTX name delimiting a step, for the detected step time.",
            Value(std::string())),
    };
  }
  engine::Need needs() const override { return engine::Need::kKernels | engine::Need::kRuntime | engine::Need::kNvtx; }

  Expected<Table> run(const Context& ctx) const override {
    const double params = ArgDouble(ctx, "params");
    if (!(params > 0)) return Invalid("Argument 'params' of skill 'mfu' must be > 0.");
    MfuInputs in;
    in.dtype = ArgString(ctx, "dtype");
    if (auto stop = ResolvePeak(ctx, in)) return std::move(*stop);
    if (auto stop = ResolveGpuCount(ctx, in)) return std::move(*stop);
    if (auto stop = ResolveTokensPerSecond(ctx, in)) return std::move(*stop);
    return MakeTable(ctx, params, in);
  }

 private:
  // What the run resolves before computing: each Resolve step fills its part, or returns the error or declined
  // table that ends the run.
  struct MfuInputs {
    std::string dtype;
    double peak = 0;  // dense TFLOP/s per GPU
    std::string gpu_label;
    int64_t n_gpu = 0;
    double tokens_per_s = 0, step_s = 0;
    std::string step_source;
    std::vector<std::string> notes;
  };
  using Stop = std::optional<Expected<Table>>;

  static Stop ResolvePeak(const Context& ctx, MfuInputs& in) {
    if (!IsNull(Arg(ctx, "peak_tflops"))) {
      in.peak = ArgDouble(ctx, "peak_tflops");
      if (!(in.peak > 0)) return Invalid("Argument 'peak_tflops' of skill 'mfu' must be > 0.");
      in.gpu_label = "user peak";
      in.notes.push_back(fmt::format("Peak: {} TFLOP/s per GPU as given (peak_tflops).", in.peak));
      return std::nullopt;
    }
    const GpuPeak* row = nullptr;
    if (!IsNull(Arg(ctx, "gpu"))) {
      row = MatchGpuPeak(ArgString(ctx, "gpu"));
      if (!row)
        return Invalid(fmt::format("GPU \"{}\" is not in the peak table ({}); known: {}. Pass peak_tflops.",
                                   ArgString(ctx, "gpu"), kGpuPeakTableVersion, KnownGpus()));
    } else {
      if (auto stop = PeakRowOfProfile(ctx, in, row)) return stop;
    }
    in.peak = PeakTflops(*row, in.dtype);
    if (in.peak <= 0) {
      return Declined(fmt::format("The peak table ({}) has no dense {} figure for {}; pass peak_tflops.",
                                  kGpuPeakTableVersion, in.dtype, row->key));
    }
    in.gpu_label = row->key;
    in.notes.push_back(
        fmt::format("Peak: {} dense {} TFLOP/s per GPU from table {}.", in.peak, in.dtype, kGpuPeakTableVersion));
    return std::nullopt;
  }

  // Sets `row` to the peak table row of the (selected) devices' one GPU model, or returns the declined table saying
  // why there is none.
  static Stop PeakRowOfProfile(const Context& ctx, MfuInputs& in, const GpuPeak*& row) {
    std::set<std::string> names;
    for (const engine::Device& d : ctx.profile.info().devices) {
      if (ctx.filter.AcceptsDevice(d.id)) names.insert(d.name);
    }
    names.erase("");
    if (names.empty()) {
      return Declined(
          "MFU needs the GPU model for its peak, and this profile has no GPU names (no TARGET_INFO_GPU table). "
          "Pass gpu=\"H100 SXM\" (or another row of the peak table) or peak_tflops.");
    }
    if (names.size() > 1) {
      return Declined(
          fmt::format("The profile mixes GPU models ({}); pass device, gpu or peak_tflops.", fmt::join(names, ", ")));
    }
    row = MatchGpuPeak(*names.begin());
    if (!row) {
      return Declined(
          fmt::format("GPU \"{}\" is not in the dense peak table ({}; known: {}), so its peak would be a guess. Pass "
                      "peak_tflops, or gpu= naming a listed model.",
                      *names.begin(), kGpuPeakTableVersion, KnownGpus()));
    }
    in.notes.push_back(fmt::format("GPU \"{}\" matched the peak table row \"{}\".", *names.begin(), row->key));
    return std::nullopt;
  }

  static Stop ResolveGpuCount(const Context& ctx, MfuInputs& in) {
    in.n_gpu = ArgInt(ctx, "n_gpu");
    if (!IsNull(Arg(ctx, "n_gpu"))) {
      if (in.n_gpu < 1) return Invalid("Argument 'n_gpu' of skill 'mfu' must be >= 1.");
      return std::nullopt;
    }
    in.n_gpu = !ctx.filter.devices.empty() ? static_cast<int64_t>(ctx.filter.devices.size())
                                           : static_cast<int64_t>(DeviceIds(ctx.profile.info()).size());
    if (in.n_gpu < 1) return Declined("The profile lists no GPU devices; pass n_gpu.");
    in.notes.push_back(
        fmt::format("n_gpu = {}: the devices {}in the profile; pass n_gpu when the job used more GPUs "
                    "than were traced.",
                    in.n_gpu, !ctx.filter.devices.empty() ? "selected " : ""));
    return std::nullopt;
  }

  static Stop ResolveTokensPerSecond(const Context& ctx, MfuInputs& in) {
    if (!IsNull(Arg(ctx, "tokens_per_s"))) {
      in.tokens_per_s = ArgDouble(ctx, "tokens_per_s");
      if (!(in.tokens_per_s > 0)) return Invalid("Argument 'tokens_per_s' of skill 'mfu' must be > 0.");
      in.step_source = "tokens_per_s given";
      return std::nullopt;
    }
    if (IsNull(Arg(ctx, "tokens_per_step"))) {
      return Invalid("Skill 'mfu' needs tokens_per_step (with a step time, given or detected) or tokens_per_s.");
    }
    const double tokens_per_step = ArgDouble(ctx, "tokens_per_step");
    if (!(tokens_per_step > 0)) return Invalid("Argument 'tokens_per_step' of skill 'mfu' must be > 0.");
    if (!IsNull(Arg(ctx, "step_time_s"))) {
      in.step_s = ArgDouble(ctx, "step_time_s");
      if (!(in.step_s > 0)) return Invalid("Argument 'step_time_s' of skill 'mfu' must be > 0.");
      in.step_source = "step_time_s given";
    } else if (auto stop = DetectStepTime(ctx, in)) {
      return stop;
    }
    in.tokens_per_s = tokens_per_step / in.step_s;
    return std::nullopt;
  }

  // The step time as the median detected iteration.
  static Stop DetectStepTime(const Context& ctx, MfuInputs& in) {
    auto iters = DetectIterations(ctx, ArgString(ctx, "marker"));
    if (!iters) return iters.error();
    if (!iters->found) return Declined("No step time: " + iters->decline_reason + " Or pass step_time_s.");
    in.step_s = static_cast<double>(MedianIterationNs(iters->iterations)) / 1e9;
    in.step_source = fmt::format("median of {} detected iterations ({})", iters->iterations.size(), iters->method);
    in.notes.insert(in.notes.end(), iters->notes.begin(), iters->notes.end());
    if (iters->method == "kernel_period") {
      in.notes.push_back(
          "Caution: the step time comes from kernel periodicity, whose repeating unit may be a layer; "
          "MFU is only right if that unit is one training step. Pass step_time_s or marker to be sure.");
    }
    return std::nullopt;
  }

  static Table MakeTable(const Context& ctx, double params, const MfuInputs& in) {
    // FLOPs per token.
    int64_t hidden = ArgInt(ctx, "hidden");
    if (IsNull(Arg(ctx, "hidden")) && !IsNull(Arg(ctx, "heads")) && !IsNull(Arg(ctx, "head_dim"))) {
      hidden = ArgInt(ctx, "heads") * ArgInt(ctx, "head_dim");
    }
    const int64_t layers = ArgInt(ctx, "layers"), seq = ArgInt(ctx, "seq");
    const bool attention = layers > 0 && hidden > 0 && seq > 0;
    const double attn =
        attention ? 12.0 * static_cast<double>(layers) * static_cast<double>(hidden) * static_cast<double>(seq) : 0.0;
    const double flops_per_token = 6.0 * params + attn;
    const bool recompute = ArgBool(ctx, "recompute");
    const double hw_flops_per_token = 8.0 * params + attn * 16.0 / 12.0;
    const double achieved_tflops = in.tokens_per_s * flops_per_token / static_cast<double>(in.n_gpu) / 1e12;
    const double mfu = 100.0 * achieved_tflops / in.peak;
    const double hfu = 100.0 * in.tokens_per_s * hw_flops_per_token / static_cast<double>(in.n_gpu) / 1e12 / in.peak;

    Table t;
    t.columns = {DoubleCol("mfu_pct", "Model FLOPs / (n_gpu x dense peak x time) x 100"),
                 DoubleCol("hfu_pct", "Hardware FLOPs utilization counting the recomputed forward (recompute=true)"),
                 DoubleCol("achieved_tflops_per_gpu", "Model TFLOP/s per GPU"),
                 DoubleCol("peak_tflops_per_gpu", "Dense peak used"),
                 DoubleCol("tokens_per_s", "Global tokens per second"),
                 DoubleCol("flops_per_token", "6N + 12·L·H·Q·T"),
                 DoubleCol("step_time_s", "Seconds per step (null when tokens_per_s was given)"),
                 IntCol("n_gpu", "GPUs"),
                 StringCol("gpu", "Peak table row (or \"user peak\")"),
                 StringCol("dtype", "Dtype of the peak"),
                 StringCol("step_time_source", "Where the step time came from")};
    t.rows.push_back({D(mfu), recompute ? D(hfu) : Null(), D(achieved_tflops), D(in.peak), D(in.tokens_per_s),
                      D(flops_per_token), in.step_s > 0 ? D(in.step_s) : Null(), I(in.n_gpu), S(in.gpu_label),
                      S(in.dtype), S(in.step_source)});
    t.notes.push_back(
        "MFU = tokens/s x (6N + 12·L·H·Q·T) / (n_gpu x dense peak) (PaLM's definition): recomputation is not counted; "
        "with recompute=true, HFU counts it (8N + 16·L·H·Q·T per token).");
    if (!attention) {
      t.notes.push_back(
          "The attention term 12·L·H·Q·T is omitted (give layers, hidden or heads+head_dim, and seq): "
          "MFU is understated for long sequences.");
    }
    t.notes.insert(t.notes.end(), in.notes.begin(), in.notes.end());
    return t;
  }

  static std::string KnownGpus() {
    std::string out;
    for (const GpuPeak& p : GpuPeakTable()) out += (out.empty() ? "" : ", ") + p.key;
    return out;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeMfu() {
  return std::make_shared<MfuSkill>();
}

}  // namespace nsys::skills::builtin
