// The validator against hand-made traces: one valid, and one for each way a trace can be broken.
#include "nsys/trace/validator.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/trace/protobuf.h"

namespace nsys::trace {
namespace {

// Builds traces field by field (Perfetto's numbers), so a test can break exactly one rule.
class HandTrace {
 public:
  void Packet(const std::function<void(ProtoEncoder&)>& body) {
    const size_t p = out_.BeginMessage(1);
    body(out_);
    out_.EndMessage(p);
  }
  // The usual first packet: sequence 1, state cleared, event name iid 1 = "k", category 1, arg name 1.
  HandTrace& Start(uint32_t seq = 1) {
    Packet([&](ProtoEncoder& e) {
      e.VarintField(10, seq);
      e.VarintField(13, 1);
      e.BoolField(87, true);
      const size_t i = e.BeginMessage(12);
      Interned(e, 1, 1, "cat");
      Interned(e, 2, 1, "k");
      Interned(e, 3, 1, "arg");
      e.EndMessage(i);
    });
    return *this;
  }
  HandTrace& Track(uint64_t uuid, uint64_t parent = 0, bool counter = false) {
    Packet([&](ProtoEncoder& e) {
      e.VarintField(10, 1);
      const size_t d = e.BeginMessage(60);
      e.VarintField(1, uuid);
      e.BytesField(2, "t");
      if (parent) e.VarintField(5, parent);
      if (counter) {
        const size_t c = e.BeginMessage(8);
        e.BytesField(6, "%");
        e.EndMessage(c);
      }
      e.EndMessage(d);
    });
    return *this;
  }
  struct Event {
    int type = 1;
    uint64_t track = 1;
    int64_t ts = 0;
    uint64_t name_iid = 1;
    uint32_t flags = 2;
    uint32_t seq = 1;
    std::vector<uint64_t> flows, terminating;
    bool flows_as_varint = false;
    bool value = false;
    bool arg = false;
  };
  static Event E(int type, uint64_t track, int64_t ts, uint64_t name_iid = 1, uint32_t flags = 2, uint32_t seq = 1) {
    Event e;
    e.type = type;
    e.track = track;
    e.ts = ts;
    e.name_iid = name_iid;
    e.flags = flags;
    e.seq = seq;
    return e;
  }
  HandTrace& Add(const Event& ev) {
    Packet([&](ProtoEncoder& e) {
      e.VarintField(8, static_cast<uint64_t>(ev.ts));
      e.VarintField(10, ev.seq);
      if (ev.flags) e.VarintField(13, ev.flags);
      const size_t t = e.BeginMessage(11);
      e.VarintField(9, ev.type);
      e.VarintField(11, ev.track);
      if (ev.type == 1 || ev.type == 3) e.VarintField(10, ev.name_iid);
      if (ev.value) e.DoubleField(44, 50.0);
      for (uint64_t f : ev.flows) ev.flows_as_varint ? e.VarintField(47, f) : e.Fixed64Field(47, f);
      for (uint64_t f : ev.terminating) e.Fixed64Field(48, f);
      if (ev.arg) {
        const size_t a = e.BeginMessage(4);
        e.VarintField(1, 1);
        e.VarintField(3, 42);
        e.EndMessage(a);
      }
      e.EndMessage(t);
    });
    return *this;
  }
  HandTrace& Begin(uint64_t track, int64_t ts, uint64_t name_iid = 1) { return Add(E(1, track, ts, name_iid)); }
  HandTrace& End(uint64_t track, int64_t ts) { return Add(E(2, track, ts, 0, 0)); }
  std::string bytes() const { return std::string(out_.view()); }

 private:
  static void Interned(ProtoEncoder& e, uint32_t list, uint64_t iid, std::string_view name) {
    const size_t x = e.BeginMessage(list);
    e.VarintField(1, iid);
    e.BytesField(2, name);
    e.EndMessage(x);
  }
  ProtoEncoder out_;
};

// Expects exactly the errors that mention `needle` (and at least one).
void ExpectError(const std::string& trace, const std::string& needle) {
  const ValidationReport r = ValidateTrace(trace);
  EXPECT_FALSE(r.ok()) << "expected an error about '" << needle << "'";
  bool found = false;
  for (const auto& e : r.errors) found = found || e.find(needle) != std::string::npos;
  EXPECT_TRUE(found) << "no error mentions '" << needle << "'; got:\n" << r.Summary();
}

HandTrace Valid() {
  HandTrace t;
  t.Start().Track(1).Track(2, 1).Track(3, 1, /*counter=*/true);
  t.Begin(1, 100).Begin(1, 110).End(1, 120).End(1, 200);  // nested
  HandTrace::Event launch = HandTrace::E(1, 2, 105, 1);
  launch.flows = {77};
  launch.arg = true;
  t.Add(launch).End(2, 106);
  HandTrace::Event kernel = HandTrace::E(1, 1, 300, 1);
  kernel.terminating = {77};
  t.Add(kernel).End(1, 310);
  t.Add(HandTrace::E(3, 2, 400, 1));  // instant
  HandTrace::Event counter = HandTrace::E(4, 3, 100, 0, 0);
  counter.value = true;
  t.Add(counter);
  return t;
}

TEST(TraceValidator, AcceptsAWellFormedTrace) {
  const ValidationReport r = ValidateTrace(Valid().bytes());
  EXPECT_TRUE(r.ok()) << r.Summary();
  EXPECT_EQ(r.packets, 14);
  EXPECT_EQ(r.tracks, 3);
  EXPECT_EQ(r.slices, 4);
  EXPECT_EQ(r.instants, 1);
  EXPECT_EQ(r.counter_values, 1);
  EXPECT_EQ(r.flows, 1);
  EXPECT_EQ(r.max_depth, 2);
}

TEST(TraceValidator, SameResultWhateverTheChunking) {
  const std::string bytes = Valid().bytes();
  for (size_t step : {1u, 2u, 3u, 7u, 64u}) {
    TraceValidator v;
    for (size_t i = 0; i < bytes.size(); i += step) v.Feed(std::string_view(bytes).substr(i, step));
    const ValidationReport r = v.Finish();
    EXPECT_TRUE(r.ok()) << "step " << step << ": " << r.Summary();
    EXPECT_EQ(r.packets, 14);
  }
}

TEST(TraceValidator, Truncated) {
  const std::string bytes = Valid().bytes();
  ExpectError(bytes.substr(0, bytes.size() - 3), "truncated");
}

TEST(TraceValidator, NotAPacket) {
  ExpectError(std::string("\x10\x01", 2) + Valid().bytes(), "not Trace.packet");
}

TEST(TraceValidator, DuplicateUuid) {
  ExpectError(HandTrace().Start().Track(1).Track(1).bytes(), "declared twice");
}

TEST(TraceValidator, ZeroUuid) {
  ExpectError(HandTrace().Start().Track(0).bytes(), "non-zero uuid");
}

TEST(TraceValidator, UnknownParent) {
  ExpectError(HandTrace().Start().Track(1, 9).bytes(), "unknown parent 9");
}

TEST(TraceValidator, EventBeforeItsTrack) {
  ExpectError(HandTrace().Start().Begin(5, 10).End(5, 20).Track(5).bytes(), "not declared before");
}

TEST(TraceValidator, EndWithoutBegin) {
  ExpectError(HandTrace().Start().Track(1).End(1, 10).bytes(), "no open slice");
}

TEST(TraceValidator, SliceLeftOpen) {
  ExpectError(HandTrace().Start().Track(1).Begin(1, 10).bytes(), "still open");
}

TEST(TraceValidator, OverlapThatCannotNest) {
  // A [10, 30) and B [20, 40) on one track: B's END at 40 comes before A's END at 30 in any valid order, so
  // writing A's END after B's goes back in time.
  ExpectError(HandTrace().Start().Track(1).Begin(1, 10).Begin(1, 20).End(1, 40).End(1, 30).bytes(), "back in time");
}

// A GPU render stage event (field 53): its hardware queue and stage (InternedData 24) and its graphics context (23)
// must be interned before it; each case breaks one.
std::string RenderStage(bool intern_queue, bool intern_context, bool with_name) {
  HandTrace t;
  t.Start();
  t.Packet([&](ProtoEncoder& e) {
    const size_t i = e.BeginMessage(12);
    if (intern_context) {
      const size_t c = e.BeginMessage(23);
      e.VarintField(1, 1);
      e.VarintField(2, 4242);
      e.VarintField(3, 4);
      e.EndMessage(c);
    }
    for (uint64_t iid : {uint64_t{1}, uint64_t{2}}) {
      if (iid == 2 && !intern_queue) continue;
      const size_t s = e.BeginMessage(24);
      e.VarintField(1, iid);
      e.BytesField(2, iid == 1 ? "CUDA kernel" : "GPU 0 stream 7");
      e.EndMessage(s);
    }
    e.EndMessage(i);
    e.VarintField(8, 1000);
    e.VarintField(10, 1);
    e.VarintField(13, 2);
    const size_t g = e.BeginMessage(53);
    e.VarintField(1, 1);
    e.VarintField(2, 500);
    e.VarintField(5, 1);
    e.VarintField(13, 2);
    e.VarintField(14, 1);
    if (with_name) e.VarintField(20, 1);  // the event name "k" of Start()
    e.EndMessage(g);
  });
  return t.bytes();
}

TEST(TraceValidator, AGpuRenderStageNeedsItsQueueStageAndContextInterned) {
  const ValidationReport ok = ValidateTrace(RenderStage(true, true, true));
  EXPECT_TRUE(ok.ok()) << ok.Summary();
  EXPECT_EQ(ok.gpu_stages, 1);
  ExpectError(RenderStage(false, true, true), "hardware queue iid 2 used before it was defined");
  ExpectError(RenderStage(true, false, true), "graphics context iid 1 used before it was defined");
  ExpectError(RenderStage(true, true, false), "without an id, a duration or a name");
}

TEST(TraceValidator, NameIidNeverDefined) {
  ExpectError(HandTrace().Start().Track(1).Begin(1, 10, 9).End(1, 20).bytes(), "iid 9 used before");
}

TEST(TraceValidator, NameIidZero) {
  ExpectError(HandTrace().Start().Track(1).Begin(1, 10, 0).End(1, 20).bytes(), "iid 0");
}

TEST(TraceValidator, InternedStateClearedAgain) {
  HandTrace t;
  t.Start().Track(1);
  t.Packet([](ProtoEncoder& e) {  // clears the sequence again, without re-defining the name
    e.VarintField(10, 1);
    e.VarintField(13, 1);
  });
  t.Begin(1, 10).End(1, 20);
  ExpectError(t.bytes(), "iid 1 used before");
}

TEST(TraceValidator, IidOnAnotherSequence) {
  HandTrace t;
  t.Start(1).Track(1);
  t.Add(HandTrace::E(1, 1, 10, 1, 2, /*seq=*/2));
  ExpectError(t.bytes(), "before the sequence's state was cleared");
}

TEST(TraceValidator, MissingNeedsIncrementalStateFlag) {
  HandTrace::Event begin = HandTrace::E(1, 1, 10, 1, 0);
  ExpectError(HandTrace().Start().Track(1).Add(begin).End(1, 20).bytes(), "SEQ_NEEDS_INCREMENTAL_STATE");
}

TEST(TraceValidator, ZeroSequenceId) {
  HandTrace::Event begin = HandTrace::E(1, 1, 10, 1, 2, 0);
  ExpectError(HandTrace().Start().Track(1).Add(begin).End(1, 20).bytes(), "trusted_packet_sequence_id");
}

TEST(TraceValidator, FlowNeverTerminated) {
  HandTrace::Event launch = HandTrace::E(1, 1, 10, 1);
  launch.flows = {5};
  ExpectError(HandTrace().Start().Track(1).Add(launch).End(1, 20).bytes(), "flow 5 is never terminated");
}

TEST(TraceValidator, FlowTerminatedButNeverBegun) {
  HandTrace::Event kernel = HandTrace::E(1, 1, 10, 1);
  kernel.terminating = {6};
  ExpectError(HandTrace().Start().Track(1).Add(kernel).End(1, 20).bytes(), "never begun");
}

TEST(TraceValidator, FlowIdsMustBeFixed64) {
  HandTrace::Event launch = HandTrace::E(1, 1, 10, 1);
  launch.flows = {5};
  launch.flows_as_varint = true;
  ExpectError(HandTrace().Start().Track(1).Add(launch).End(1, 20).bytes(), "must be fixed64");
}

TEST(TraceValidator, CounterOnASliceTrack) {
  HandTrace::Event counter = HandTrace::E(4, 1, 10, 0, 0);
  counter.value = true;
  ExpectError(HandTrace().Start().Track(1).Add(counter).bytes(), "not a counter track");
}

TEST(TraceValidator, SliceOnACounterTrack) {
  ExpectError(HandTrace().Start().Track(1, 0, true).Begin(1, 10).End(1, 20).bytes(), "slice on counter track");
}

TEST(TraceValidator, UnexpectedField) {
  HandTrace t;
  t.Start().Track(1);
  t.Packet([](ProtoEncoder& e) {
    e.VarintField(10, 1);
    e.VarintField(77, 1);
  });
  ExpectError(t.bytes(), "unexpected TracePacket field 77");
}

}  // namespace
}  // namespace nsys::trace
