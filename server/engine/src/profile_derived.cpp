#include <memory>
#include <mutex>
#include <string>

#include "nsys/engine/profile.h"

namespace nsys::engine {

std::shared_ptr<const void> Profile::Derived(const std::string& key, const DerivedMaker& make) const {
  std::shared_ptr<DerivedSlot> slot;
  {
    std::lock_guard<std::mutex> lock(derived_mu_);
    auto& entry = derived_[key];
    if (!entry) entry = std::make_shared<DerivedSlot>();
    slot = entry;
  }
  std::lock_guard<std::mutex> lock(slot->mu);
  if (!slot->value) slot->value = make();
  return slot->value;
}

}  // namespace nsys::engine
