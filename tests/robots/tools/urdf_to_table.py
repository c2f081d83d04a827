#!/usr/bin/env python3
"""Prints the constant tables of a built-in robot model (include/retarget/robots/*.hpp)
transcribed from a URDF file: links (mass, centre of mass), joints (origin, axis, limits,
mimic) and collision primitives (sphere, cylinder, capsule, box; meshes are skipped).

Usage: urdf_to_table.py <file.urdf> [--exclude-joint NAME ...]
An excluded joint drops its whole child subtree; --fix-joint turns a joint into a fixed
one (at its zero position); --limit NAME=lo,hi replaces a joint's position limits. Numbers are written with repr(), which
reproduces the URDF's decimal value exactly as a double.
"""
import argparse
import xml.etree.ElementTree as ET

TYPES = {"revolute": "kRevolute", "continuous": "kContinuous", "prismatic": "kPrismatic", "fixed": "kFixed"}


def nums(text, n=3, default=0.0):
    if text is None:
        return [default] * n
    values = [float(v) for v in text.split()]
    assert len(values) == n, text
    return values


def fmt(v):
    if v == float("inf"):
        return "kNoLimit"
    if v == float("-inf"):
        return "-kNoLimit"
    r = repr(float(v))
    return r


def arr(values):
    return "{" + ", ".join(fmt(v) for v in values) + "}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("urdf")
    parser.add_argument("--exclude-joint", action="append", default=[])
    parser.add_argument("--fix-joint", action="append", default=[], help="make a joint fixed (drops its mimic)")
    parser.add_argument("--limit", action="append", default=[], help="NAME=lower,upper overrides position limits")
    parser.add_argument("--no-shapes", action="store_true", help="skip the URDF collision primitives")
    args = parser.parse_args()
    root = ET.parse(args.urdf).getroot()
    joints = root.findall("joint")
    children = {}
    for j in joints:
        children.setdefault(j.find("parent").get("link"), []).append(j)
    dropped_links = set()
    dropped_joints = set(args.exclude_joint)
    stack = [j.find("child").get("link") for j in joints if j.get("name") in dropped_joints]
    while stack:
        link = stack.pop()
        dropped_links.add(link)
        for j in children.get(link, []):
            dropped_joints.add(j.get("name"))
            stack.append(j.find("child").get("link"))

    print("inline constexpr RobotTableLink kLinks[] = {")
    for link in root.findall("link"):
        name = link.get("name")
        if name in dropped_links:
            continue
        inertial = link.find("inertial")
        mass, com = 0.0, [0.0, 0.0, 0.0]
        if inertial is not None:
            mass = float(inertial.find("mass").get("value"))
            origin = inertial.find("origin")
            com = nums(origin.get("xyz") if origin is not None else None)
        print(f'    {{"{name}", {fmt(mass)}, {arr(com)}}},')
    print("};")

    print("inline constexpr RobotTableJoint kJoints[] = {")
    for j in joints:
        name = j.get("name")
        if name in dropped_joints:
            continue
        jtype = TYPES[j.get("type")]
        fixed_here = name in args.fix_joint
        if fixed_here:
            jtype = "kFixed"
        origin = j.find("origin")
        xyz = nums(origin.get("xyz") if origin is not None else None)
        rpy = nums(origin.get("rpy") if origin is not None else None)
        axis_el = j.find("axis")
        axis = nums(axis_el.get("xyz") if axis_el is not None else "1 0 0")
        limit = j.find("limit")
        inf = float("inf")
        lower, upper, velocity, effort = -inf, inf, inf, inf
        if limit is not None:
            lower = float(limit.get("lower", "0"))
            upper = float(limit.get("upper", "0"))
            velocity = float(limit.get("velocity", "inf"))
            effort = float(limit.get("effort", "inf"))
        for override in args.limit:
            key, values = override.split("=")
            if key == name:
                lower, upper = (float(v) for v in values.split(","))
        if jtype in ("kContinuous", "kFixed"):
            lower, upper = -inf, inf
        mimic = j.find("mimic")
        mimic_txt = "nullptr, 1.0, 0.0"
        if mimic is not None and not fixed_here:
            mimic_txt = f'"{mimic.get("joint")}", {fmt(float(mimic.get("multiplier", "1")))}, {fmt(float(mimic.get("offset", "0")))}'
        parent = j.find("parent").get("link")
        child = j.find("child").get("link")
        print(f'    {{"{name}", JointType::{jtype}, "{parent}", "{child}", {arr(xyz)}, {arr(rpy)}, {arr(axis)},')
        print(f'     {fmt(lower)}, {fmt(upper)}, {fmt(velocity)}, {fmt(effort)}, {mimic_txt}}},')
    print("};")

    shapes = []
    for link in root.findall("link"):
        name = link.get("name")
        if name in dropped_links:
            continue
        for k, col in enumerate(link.findall("collision")):
            geom = col.find("geometry")
            origin = col.find("origin")
            xyz = nums(origin.get("xyz") if origin is not None else None)
            rpy = nums(origin.get("rpy") if origin is not None else None)
            sphere, cyl, cap, box = (geom.find(t) for t in ("sphere", "cylinder", "capsule", "box"))
            if sphere is not None:
                kind, size = "kSphere", [float(sphere.get("radius")), 0.0, 0.0]
            elif cyl is not None:
                kind, size = "kCylinder", [float(cyl.get("radius")), float(cyl.get("length")), 0.0]
            elif cap is not None:
                kind, size = "kCapsule", [float(cap.get("radius")), float(cap.get("length")), 0.0]
            elif box is not None:
                kind, size = "kBox", nums(box.get("size"))
            else:
                continue
            shapes.append(f'    {{"{name}", "{name}_collision{k}", UrdfPrimitive::{kind}, {arr(size)}, {arr(xyz)}, {arr(rpy)}}},')
    if shapes and not args.no_shapes:
        print("inline constexpr RobotTableShape kShapes[] = {")
        print("\n".join(shapes))
        print("};")
    elif not args.no_shapes:
        print("// The URDF has no primitive collision geometry (meshes only).")


if __name__ == "__main__":
    main()
