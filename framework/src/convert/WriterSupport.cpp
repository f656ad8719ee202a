#include "WriterSupport.hpp"

#include "interlink/convert/Writers.hpp"

#include <cmath>
#include <cstdio>

#include "interlink/PoseMath.hpp"

namespace interlink::convert::detail {

std::string number(double value) {
  if (std::abs(value) < 1e-15) value = 0.0;
  return formatNumber(value);
}

std::string numbers(const Vector3& v) { return number(v.x()) + " " + number(v.y()) + " " + number(v.z()); }

std::string xmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') {
          out += "&#" + std::to_string(static_cast<int>(c)) + ";";
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string jsonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

void XmlOut::indent() {
  for (int i = 0; i < depth_; ++i) out_ << "  ";
}

void XmlOut::open(const std::string& name, const std::string& attributes) {
  indent();
  out_ << "<" << name << attributes << ">\n";
  ++depth_;
}

void XmlOut::close(const std::string& name) {
  --depth_;
  indent();
  out_ << "</" << name << ">\n";
}

void XmlOut::leaf(const std::string& name, const std::string& text, const std::string& attributes) {
  indent();
  out_ << "<" << name << attributes << ">" << xmlEscape(text) << "</" << name << ">\n";
}

void XmlOut::empty(const std::string& name, const std::string& attributes) {
  indent();
  out_ << "<" << name << attributes << "/>\n";
}

void XmlOut::comment(const std::string& text) {
  std::string safe = text;
  for (std::size_t p = safe.find("--"); p != std::string::npos; p = safe.find("--")) safe.replace(p, 2, "- -");
  indent();
  out_ << "<!-- " << safe << " -->\n";
}

void XmlOut::raw(const std::string& markup) {
  indent();
  out_ << markup << "\n";
}

bool boundsMotion(double bound) { return std::isfinite(bound) && std::abs(bound) < 1e16; }

std::string attr(const std::string& name, const std::string& value) {
  return " " + name + "=\"" + xmlEscape(value) + "\"";
}

Pose relativePose(const FrameGraph& graph, std::size_t reference, std::size_t frame) {
  const auto& frames = graph.frames();
  return frames[reference].pose.inverse() * frames[frame].pose;
}

Vector3 axisInJointFrame(const FrameGraph& graph, std::size_t jointFrame, const JointAxis& axis) {
  if (axis.expressedIn.empty()) return axis.xyz;
  auto reference = graph.resolveReference(jointFrame, axis.expressedIn);
  if (!reference) return axis.xyz;
  return relativePose(graph, jointFrame, *reference).linear() * axis.xyz;
}

bool writable(const LoadResult& loaded, Diagnostics& diagnostics) {
  if (!loaded.ok()) {
    diagnostics.error(ErrorCode::ELEMENT_ERROR, "the input has errors; nothing is written",
                      SourceLocation{loaded.document.sourceFile, 0, 0});
    return false;
  }
  if (!loaded.document.isWorld() && !loaded.document.model) {
    diagnostics.error(ErrorCode::ELEMENT_MISSING, "the input holds neither a world nor a model",
                      SourceLocation{loaded.document.sourceFile, 0, 0});
    return false;
  }
  return true;
}

std::string quaternionWxyzText(const Pose& pose) {
  const Eigen::Vector4d q = quaternionWxyz(pose);
  return number(q[0]) + " " + number(q[1]) + " " + number(q[2]) + " " + number(q[3]);
}

SingleAxisChain singleAxisChainOf(const FrameGraph& graph, std::size_t jointFrame, const Joint& joint) {
  std::vector<Vector3> axes;
  axes.reserve(joint.axes.size());
  for (const JointAxis& axis : joint.axes) axes.push_back(axisInJointFrame(graph, jointFrame, axis));
  return singleAxisChain(joint.type, axes);
}

}  // namespace interlink::convert::detail

namespace interlink::convert {

std::string jsonQuoted(std::string_view text) { return detail::jsonString(text); }

}  // namespace interlink::convert
