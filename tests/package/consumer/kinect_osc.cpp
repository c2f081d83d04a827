// A downstream program using retarget::kinect_osc (liblo comes with the target, found by the
// installed retargetFindLiblo.cmake): opens a UDP port and waits briefly for a frame.
#include <cstdio>

#include <retarget/adapters/kinect/kinect_osc_source.hpp>

int main() {
  retarget::KinectOscSourceOptions options;
  options.port = "0";
  retarget::KinectOscSource source(options);
  retarget::SkeletonFrame<double> frame;
  const bool got = source.read(frame, 10);
  std::printf("retarget::kinect_osc: listening on UDP port %d, frame: %s\n", source.port(), got ? "yes" : "no");
  return source.port() > 0 && !got ? 0 : 1;
}
