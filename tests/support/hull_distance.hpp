#pragma once

// Signed distance of a point inside the convex hull of a few planar points, by brute force (the
// tests' own check of support polygons, written apart from the library's polygon code).

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Core>

namespace retarget::test {

/// Distance (same unit as the points) of `p` inside the convex hull of `points`, negative
/// outside: the smallest distance to the line of a hull edge, an edge being a pair of points
/// with every point on one side of it.
inline double insideHull(const std::vector<Eigen::Vector2d>& points, const Eigen::Vector2d& p) {
  double best = INFINITY;
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::size_t j = 0; j < points.size(); ++j) {
      if (i == j || (points[i] - points[j]).norm() < 1e-12) continue;
      const Eigen::Vector2d d = points[j] - points[i];
      const Eigen::Vector2d normal = Eigen::Vector2d(d.y(), -d.x()).normalized();
      bool edge = true;
      for (const auto& q : points) edge = edge && normal.dot(q - points[i]) <= 1e-12;
      if (edge) best = std::min(best, normal.dot(points[i] - p));
    }
  }
  return best;
}

}  // namespace retarget::test
