#pragma once

// Reference kinematics from MuJoCo itself (Debian's libmujoco-dev, MuJoCo 2.2.2) for checking
// the MJCF reader. MuJoCo 2.2.2 needs the mesh files and predates some of what current MJCF
// files use, so it is handed a copy rewritten here with tinyxml2 only (no retarget code): mesh
// geoms, <asset> and the sections that do not shape the body tree (actuators, sensors,
// keyframes, options, contacts, equalities, tendons, statistics) are dropped, with sites,
// cameras, lights and the attributes 2.2.2 does not know; <frame> elements are dissolved into
// their children (their pose composed into each child's pos/quat or fromto, their childclass
// handed on); unnamed geoms of named bodies are named as the reader names them; and <compiler autolimits="true"> is set (the default since MuJoCo 3.0).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <tinyxml2.h>

#include <mujoco/mujoco.h>

namespace retarget::test {

/// A pose read by the rewriter: position and unit quaternion (w x y z).
struct MjPose {
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
};

/// Numbers of a white-space separated attribute.
inline std::vector<double> mjNumbers(const char* text) {
  std::vector<double> values;
  std::istringstream in(text != nullptr ? text : "");
  for (double v = 0; in >> v;) values.push_back(v);
  return values;
}

inline std::string mjText(const std::vector<double>& values) {
  std::ostringstream out;
  out.precision(17);
  for (std::size_t i = 0; i < values.size(); ++i) out << (i > 0 ? " " : "") << values[i];
  return out.str();
}

/// The pose of a <frame> or of a child of one; only pos and quat are handled (the tests put
/// nothing else there), anything else fails the test.
inline MjPose mjFramePose(const tinyxml2::XMLElement* element) {
  MjPose pose;
  for (const char* other : {"euler", "axisangle", "xyaxes", "zaxis"}) {
    REQUIRE_MESSAGE(element->Attribute(other) == nullptr, "the MuJoCo copy dissolves frames holding pos/quat only");
  }
  if (const char* pos = element->Attribute("pos")) {
    const auto v = mjNumbers(pos);
    REQUIRE(v.size() == 3);
    pose.p = Eigen::Vector3d(v[0], v[1], v[2]);
  }
  if (const char* quat = element->Attribute("quat")) {
    const auto v = mjNumbers(quat);
    REQUIRE(v.size() == 4);
    pose.q = Eigen::Quaterniond(v[0], v[1], v[2], v[3]).normalized();
  }
  return pose;
}

/// Moves the children of every <frame> under `parent` up to the frame's place, composing the
/// frame's pose into them, and deletes the frame.
inline void mjDissolveFrames(tinyxml2::XMLElement* parent) {
  for (tinyxml2::XMLElement* child = parent->FirstChildElement(); child != nullptr;) {
    tinyxml2::XMLElement* next = child->NextSiblingElement();
    if (std::string(child->Name()) != "frame") {
      mjDissolveFrames(child);
      child = next;
      continue;
    }
    const MjPose frame = mjFramePose(child);
    const char* childclass = child->Attribute("childclass");
    tinyxml2::XMLNode* after = child;
    for (tinyxml2::XMLElement* inner = child->FirstChildElement(); inner != nullptr;) {
      tinyxml2::XMLElement* inner_next = inner->NextSiblingElement();
      const std::string kind = inner->Name();
      if (const char* fromto = inner->Attribute("fromto")) {
        const auto v = mjNumbers(fromto);
        REQUIRE(v.size() == 6);
        const Eigen::Vector3d a = frame.p + frame.q * Eigen::Vector3d(v[0], v[1], v[2]);
        const Eigen::Vector3d b = frame.p + frame.q * Eigen::Vector3d(v[3], v[4], v[5]);
        inner->SetAttribute("fromto", mjText({a.x(), a.y(), a.z(), b.x(), b.y(), b.z()}).c_str());
      } else {
        const MjPose own = mjFramePose(inner);
        const Eigen::Vector3d p = frame.p + frame.q * own.p;
        const Eigen::Quaterniond q = frame.q * own.q;
        inner->SetAttribute("pos", mjText({p.x(), p.y(), p.z()}).c_str());
        inner->SetAttribute("quat", mjText({q.w(), q.x(), q.y(), q.z()}).c_str());
      }
      if (childclass != nullptr) {
        const char* which = kind == "body" || kind == "frame" ? "childclass" : "class";
        if (inner->Attribute(which) == nullptr) inner->SetAttribute(which, childclass);
      }
      parent->InsertAfterChild(after, inner);  // moves it
      after = inner;
      inner = inner_next;
    }
    parent->DeleteChild(child);
    // What moved up may itself be a frame: look again (bodies done already are left as they are).
    child = parent->FirstChildElement();
  }
}

/// Drops, recursively, the elements named in `names` and the attributes in `attributes`.
inline void mjStrip(tinyxml2::XMLElement* element, const std::vector<std::string>& names,
                    const std::vector<std::string>& attributes) {
  for (const std::string& attribute : attributes) element->DeleteAttribute(attribute.c_str());
  for (tinyxml2::XMLElement* child = element->FirstChildElement(); child != nullptr;) {
    tinyxml2::XMLElement* next = child->NextSiblingElement();
    const std::string kind = child->Name();
    const bool mesh_geom = kind == "geom" && child->Attribute("mesh") != nullptr;
    if (mesh_geom || std::find(names.begin(), names.end(), kind) != names.end()) {
      element->DeleteChild(child);
    } else {
      mjStrip(child, names, attributes);
    }
    child = next;
  }
}

/// Names every unnamed geom of every named body "<body>_geom<k>", k counting the body's geoms
/// (those in its frames included) from 0 in document order, as the reader names its shapes, so
/// that the geoms MuJoCo keeps can be found by name.
inline void mjNameGeoms(tinyxml2::XMLElement* element, const char* body, int& k) {
  for (tinyxml2::XMLElement* child = element->FirstChildElement(); child != nullptr; child = child->NextSiblingElement()) {
    const std::string kind = child->Name();
    if (kind == "body") {
      int own = 0;
      mjNameGeoms(child, child->Attribute("name"), own);
    } else if (kind == "frame") {
      mjNameGeoms(child, body, k);
    } else if (kind == "geom") {
      if (body != nullptr && child->Attribute("name") == nullptr) {
        child->SetAttribute("name", (std::string(body) + "_geom" + std::to_string(k)).c_str());
      }
      ++k;
    }
  }
}

/// The copy of an MJCF text that MuJoCo 2.2.2 loads (see the file comment).
inline std::string mujocoCopy(const std::string& text) {
  tinyxml2::XMLDocument document;
  REQUIRE(document.Parse(text.c_str(), text.size()) == tinyxml2::XML_SUCCESS);
  tinyxml2::XMLElement* root = document.RootElement();
  REQUIRE(root != nullptr);
  for (tinyxml2::XMLElement* world = root->FirstChildElement("worldbody"); world != nullptr;
       world = world->NextSiblingElement("worldbody")) {
    int k = 0;
    mjNameGeoms(world, nullptr, k);
  }
  // Whole sections.
  for (tinyxml2::XMLElement* child = root->FirstChildElement(); child != nullptr;) {
    tinyxml2::XMLElement* next = child->NextSiblingElement();
    const std::string kind = child->Name();
    for (const char* dropped : {"asset", "actuator", "sensor", "keyframe", "option", "contact", "equality", "tendon",
                                "statistic", "visual", "custom", "extension"}) {
      if (kind == dropped) {
        root->DeleteChild(child);
        break;
      }
    }
    child = next;
  }
  // In <default>: keep joint and geom values only (the actuator defaults carry newer attributes).
  const std::function<void(tinyxml2::XMLElement*)> prune_defaults = [&](tinyxml2::XMLElement* element) {
    for (tinyxml2::XMLElement* child = element->FirstChildElement(); child != nullptr;) {
      tinyxml2::XMLElement* next = child->NextSiblingElement();
      const std::string kind = child->Name();
      if (kind == "default") {
        prune_defaults(child);
      } else if (kind != "joint" && kind != "geom" && kind != "include") {
        element->DeleteChild(child);
      }
      child = next;
    }
  };
  for (tinyxml2::XMLElement* d = root->FirstChildElement("default"); d != nullptr; d = d->NextSiblingElement("default")) {
    prune_defaults(d);
  }
  mjStrip(root, {"site", "camera", "light"},
          {"actuatorfrcrange", "actuatorfrclimited", "actuatorgravcomp", "gravcomp", "material", "priority"});
  for (tinyxml2::XMLElement* world = root->FirstChildElement("worldbody"); world != nullptr;
       world = world->NextSiblingElement("worldbody")) {
    mjDissolveFrames(world);
  }
  tinyxml2::XMLElement* compiler = root->FirstChildElement("compiler");
  if (compiler == nullptr) {
    compiler = document.NewElement("compiler");
    root->InsertFirstChild(compiler);
  }
  compiler->SetAttribute("autolimits", "true");
  tinyxml2::XMLPrinter printer;
  document.Print(&printer);
  return printer.CStr();
}

/// A model loaded into MuJoCo with its data; `error` says why when `model` is null.
struct MujocoModel {
  std::unique_ptr<mjModel, void (*)(mjModel*)> model{nullptr, mj_deleteModel};
  std::unique_ptr<mjData, void (*)(mjData*)> data{nullptr, mj_deleteData};
  std::string error;

  /// Loads the MuJoCo copy of `text`, written to `directory`/`file` (beside any file it includes).
  bool load(const std::string& text, const std::filesystem::path& directory, const std::string& file) {
    std::filesystem::create_directories(directory);
    const std::filesystem::path path = directory / file;
    {
      std::ofstream out(path);
      out << mujocoCopy(text);
    }
    char buffer[1000] = "";
    model.reset(mj_loadXML(path.string().c_str(), nullptr, buffer, sizeof buffer));
    if (!model) {
      error = buffer;
      return false;
    }
    data.reset(mj_makeData(model.get()));
    return true;
  }

  int body(const std::string& name) const { return mj_name2id(model.get(), mjOBJ_BODY, name.c_str()); }
  int joint(const std::string& name) const { return mj_name2id(model.get(), mjOBJ_JOINT, name.c_str()); }
  int geom(const std::string& name) const { return mj_name2id(model.get(), mjOBJ_GEOM, name.c_str()); }

  Eigen::Vector3d xpos(int body) const { return Eigen::Map<const Eigen::Vector3d>(data->xpos + 3 * body); }
  Eigen::Matrix3d xmat(int body) const {
    return Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(data->xmat + 9 * body);
  }
  Eigen::Vector3d xipos(int body) const { return Eigen::Map<const Eigen::Vector3d>(data->xipos + 3 * body); }
  Eigen::Vector3d subtreeCom(int body) const { return Eigen::Map<const Eigen::Vector3d>(data->subtree_com + 3 * body); }
  Eigen::Vector3d geomPos(int geom) const { return Eigen::Map<const Eigen::Vector3d>(data->geom_xpos + 3 * geom); }
  Eigen::Matrix3d geomMat(int geom) const {
    return Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(data->geom_xmat + 9 * geom);
  }
};

}  // namespace retarget::test
