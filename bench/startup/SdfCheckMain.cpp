// The reference for SDFormat start-up: what `gz sdf -k FILE` does (sdf::Root::Load, print the
// errors, exit status), without Gazebo's command-line front end.
#include <iostream>

#include <sdf/Root.hh>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: bench_sdf_check FILE\n";
    return 2;
  }
  sdf::Root root;
  const sdf::Errors errors = root.Load(argv[1]);
  for (const auto& e : errors) std::cerr << e << "\n";
  if (!errors.empty()) return 1;
  std::cout << "Valid.\n";
  return 0;
}
