#pragma once
// Format-specific records that ride on a model without the core interpreting them.
//
// A format declares a record type in its plugin's public header, with a stable kind id and a
// layout version:
//
//   struct HrdfOutputFrames {
//     static constexpr interlink::ExtensionKind kExtensionKind{"hrdf.output_frames", 1};
//     std::vector<std::string> frames;
//   };
//   model.extensions.set(HrdfOutputFrames{...});                 // in the plugin
//   if (auto* out = model.extensions.find<HrdfOutputFrames>())   // in a host or a writer
//
// Lookup compares the kind id text, the version and the record's size, never typeid, so it works
// between shared libraries built with hidden visibility (where typeinfo is not shared). The
// record is destroyed by code of the library that made it; the framework hands every record it
// adopts from a plugin a keeper of that library (ExtensionRecord::retain), so the record never
// outlives its code, even after the Loader is gone.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace interlink {

/// Identity of a record type: "<format>.<record>" and a version bumped on any layout change.
struct ExtensionKind {
  std::string_view id;
  std::uint32_t version = 1;
};

/// One type-erased record. Made with make<Record>(); read back with as<Record>().
class ExtensionRecord {
 public:
  template <class Record>
  static ExtensionRecord make(Record record) {
    ExtensionRecord made;
    made.data_ = std::make_shared<const Record>(std::move(record));
    made.kind_ = std::string(Record::kExtensionKind.id);
    made.version_ = Record::kExtensionKind.version;
    made.size_ = sizeof(Record);
    return made;
  }

  /// The record when it is of type Record (same kind id, version and size), else null.
  template <class Record>
  const Record* as() const {
    if (!matches(Record::kExtensionKind, sizeof(Record))) return nullptr;
    return static_cast<const Record*>(data_.get());
  }

  bool matches(const ExtensionKind& kind, std::size_t size) const {
    return kind_ == kind.id && version_ == kind.version && size_ == size;
  }
  const std::string& kind() const { return kind_; }
  std::uint32_t version() const { return version_; }

  /// Framework use: keeps `owner` (whatever holds the code that destroys the record, such as the
  /// plugin library) alive for as long as the record.
  void retain(std::shared_ptr<const void> owner) {
    if (!owner_) owner_ = std::move(owner);
  }

 private:
  std::shared_ptr<const void> owner_;  // declared before data_: destroyed after it
  std::shared_ptr<const void> data_;
  std::string kind_;
  std::uint32_t version_ = 0;
  std::size_t size_ = 0;
};

/// The extension records of one model, at most one per kind id.
class Extensions {
 public:
  /// Adds `record`, replacing a record of the same kind id.
  template <class Record>
  void set(Record record) {
    ExtensionRecord made = ExtensionRecord::make(std::move(record));
    for (ExtensionRecord& existing : records_) {
      if (existing.kind() == made.kind()) {
        existing = std::move(made);
        return;
      }
    }
    records_.push_back(std::move(made));
  }

  template <class Record>
  const Record* find() const {
    for (const ExtensionRecord& record : records_) {
      if (const Record* found = record.as<Record>()) return found;
    }
    return nullptr;
  }

  /// The record of kind `id` whatever its type (for listing), or null.
  const ExtensionRecord* findKind(std::string_view id) const {
    for (const ExtensionRecord& record : records_) {
      if (record.kind() == id) return &record;
    }
    return nullptr;
  }

  /// Framework use: see ExtensionRecord::retain.
  void retain(const std::shared_ptr<const void>& owner) {
    for (ExtensionRecord& record : records_) record.retain(owner);
  }

  bool empty() const { return records_.empty(); }
  std::size_t size() const { return records_.size(); }
  std::vector<ExtensionRecord>::const_iterator begin() const { return records_.begin(); }
  std::vector<ExtensionRecord>::const_iterator end() const { return records_.end(); }

 private:
  std::vector<ExtensionRecord> records_;
};

}  // namespace interlink
