#pragma once
// A small JSON text builder for the scene of `interlink view`: numbers with round-trip precision
// (the page must get the core's doubles exactly), non-finite numbers as null, strings quoted and
// safe inside an HTML <script> element.
#include <string>
#include <string_view>

#include "interlink/Pose.hpp"

namespace interlink::cli::view {

class JsonText {
 public:
  JsonText& beginObject();
  JsonText& endObject();
  JsonText& beginArray();
  JsonText& endArray();
  /// The key of the next value in an object.
  JsonText& key(std::string_view name);
  JsonText& value(std::string_view text);
  JsonText& value(const char* text) { return value(std::string_view(text)); }
  JsonText& value(const std::string& text) { return value(std::string_view(text)); }
  JsonText& value(double number);
  JsonText& value(int number) { return value(static_cast<double>(number)); }
  JsonText& value(std::size_t number) { return value(static_cast<double>(number)); }
  JsonText& value(bool flag);
  JsonText& null();
  /// Already formatted JSON.
  JsonText& raw(std::string_view json);
  JsonText& vector(const Vector3& v);
  /// {"t":[x,y,z],"R":[r00,r01,...,r22]} (rotation row-major): the exact doubles of the pose.
  JsonText& pose(const Pose& pose);

  const std::string& str() const { return text_; }
  std::string take() { return std::move(text_); }

 private:
  void separate();
  /// Opens or closes an object or array with `bracket`.
  JsonText& open(char bracket);
  JsonText& close(char bracket);
  std::string text_;
  bool needComma_ = false;
};

}  // namespace interlink::cli::view
