#pragma once
// Test helper: decodes a trace written by nsys-ai into plain structs (tracks by uuid, events in stream order with
// interned names resolved), so tests can assert on what Perfetto would see.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nsys/trace/protobuf.h"

namespace nsys::trace::testing {

struct DecodedTrack {
  uint64_t uuid = 0;
  uint64_t parent = 0;
  std::string name;
  std::optional<uint32_t> pid, tid;  // process or thread descriptor
  std::string process_name, thread_name;
  bool counter = false;
  std::string unit;
  bool explicit_order = false;
  std::optional<int32_t> rank;
};

struct DecodedEvent {
  int type = 0;  // 1 begin, 2 end, 3 instant, 4 counter
  uint64_t track = 0;
  int64_t ts = 0;
  std::string name;
  std::string category;
  std::map<std::string, std::string> args;  // values printed as text
  std::vector<uint64_t> flows, terminating_flows;
  double value = 0;
};

struct DecodedTrace {
  std::map<uint64_t, DecodedTrack> tracks;
  std::vector<DecodedEvent> events;
  int64_t packets = 0;
  std::string error;  // non-empty when decoding failed

  const DecodedTrack* TrackNamed(std::string_view name) const {
    for (const auto& [uuid, t] : tracks)
      if (t.name == name) return &t;
    return nullptr;
  }
  std::vector<const DecodedEvent*> On(uint64_t track, int type = 0) const {
    std::vector<const DecodedEvent*> out;
    for (const auto& e : events)
      if (e.track == track && (type == 0 || e.type == type)) out.push_back(&e);
    return out;
  }
  std::vector<const DecodedEvent*> Named(std::string_view name) const {
    std::vector<const DecodedEvent*> out;
    for (const auto& e : events)
      if (e.name == name) out.push_back(&e);
    return out;
  }
};

inline DecodedTrace Decode(std::string_view bytes) {
  DecodedTrace out;
  std::map<uint64_t, std::string> names, categories, arg_names;
  ProtoDecoder trace(bytes);
  ProtoField packet;
  while (trace.Next(packet)) {
    ++out.packets;
    ProtoDecoder p(packet.bytes);
    ProtoField f;
    std::optional<DecodedEvent> event;
    int64_t ts = 0;
    std::string_view event_bytes;
    while (p.Next(f)) {
      if (f.number == 8) ts = static_cast<int64_t>(f.value);
      if (f.number == 12) {  // interned data first: it may define what this packet uses
        ProtoDecoder i(f.bytes);
        ProtoField entry;
        while (i.Next(entry)) {
          ProtoDecoder e(entry.bytes);
          ProtoField ef;
          uint64_t iid = 0;
          std::string name;
          while (e.Next(ef)) {
            if (ef.number == 1) iid = ef.value;
            if (ef.number == 2) name = std::string(ef.bytes);
          }
          (entry.number == 1 ? categories : entry.number == 2 ? names : arg_names)[iid] = name;
        }
      }
      if (f.number == 11) event_bytes = f.bytes;
      if (f.number == 60) {
        DecodedTrack t;
        ProtoDecoder d(f.bytes);
        ProtoField df;
        while (d.Next(df)) {
          switch (df.number) {
            case 1:
              t.uuid = df.value;
              break;
            case 2:
              t.name = std::string(df.bytes);
              break;
            case 5:
              t.parent = df.value;
              break;
            case 11:
              t.explicit_order = df.value == 3;
              break;
            case 12:
              t.rank = static_cast<int32_t>(df.value);
              break;
            case 3:
            case 4: {
              ProtoDecoder pd(df.bytes);
              ProtoField pf;
              while (pd.Next(pf)) {
                if (pf.number == 1) t.pid = static_cast<uint32_t>(pf.value);
                if (pf.number == 2) t.tid = static_cast<uint32_t>(pf.value);
                if (pf.number == 5) t.thread_name = std::string(pf.bytes);
                if (pf.number == 6) t.process_name = std::string(pf.bytes);
              }
              break;
            }
            case 8: {
              t.counter = true;
              ProtoDecoder cd(df.bytes);
              ProtoField cf;
              while (cd.Next(cf))
                if (cf.number == 6) t.unit = std::string(cf.bytes);
              break;
            }
          }
        }
        out.tracks[t.uuid] = t;
      }
    }
    if (p.error()) {
      out.error = p.error();
      return out;
    }
    if (!event_bytes.empty()) {
      DecodedEvent e;
      e.ts = ts;
      ProtoDecoder d(event_bytes);
      ProtoField ef;
      while (d.Next(ef)) {
        switch (ef.number) {
          case 9:
            e.type = static_cast<int>(ef.value);
            break;
          case 11:
            e.track = ef.value;
            break;
          case 10:
            e.name = names[ef.value];
            break;
          case 3:
            e.category = categories[ef.value];
            break;
          case 44:
            e.value = ef.AsDouble();
            break;
          case 47:
            e.flows.push_back(ef.value);
            break;
          case 48:
            e.terminating_flows.push_back(ef.value);
            break;
          case 4: {
            ProtoDecoder a(ef.bytes);
            ProtoField af;
            std::string key, value;
            while (a.Next(af)) {
              if (af.number == 1) key = arg_names[af.value];
              if (af.number == 3) value = std::to_string(af.value);
              if (af.number == 4) value = std::to_string(static_cast<int64_t>(af.value));
              if (af.number == 5) value = std::to_string(af.AsDouble());
              if (af.number == 6) value = std::string(af.bytes);
            }
            e.args[key] = value;
            break;
          }
        }
      }
      out.events.push_back(std::move(e));
    }
  }
  if (trace.error()) out.error = trace.error();
  return out;
}

}  // namespace nsys::trace::testing
