#pragma once

/// @file
/// Header-only or compiled: what a translation unit sees of the library's definitions.
///
/// By default retarget is header-only: every function is defined in its header, and a program
/// needs nothing but the include path. That costs compile time: the non-template functions and
/// the class templates a program uses are compiled again in every translation unit that includes
/// them. A program that links the compiled part instead (CMake target `retarget::compiled`,
/// which defines `RETARGET_SEPARATE_COMPILATION` for it) sees only the declarations of the
/// non-template functions and `extern template` declarations of the `double` and `float`
/// instantiations of the heavy class and function templates, and takes their code from the
/// library: the same source, compiled once (docs/building.md, "Header-only or compiled").
///
/// How a header uses the macros below (LAYER is its directory: CORE, KINEMATICS, ...):
///
///     RETARGET_DECL Status doThing(const Thing& thing, int n = 3);     // declaration
///     ...
///     #if RETARGET_DEFINE_LAYER                                        // definitions
///     RETARGET_DECL Status doThing(const Thing& thing, int n) { ... }
///     #endif
///     #if !RETARGET_HEADER_ONLY                                        // instantiations
///     RETARGET_TEMPLATE_LAYER class Mapper<double>;
///     RETARGET_TEMPLATE_LAYER class Mapper<float>;
///     #endif
///
/// The compiled part has one source per layer (src/<layer>.cpp) that defines
/// `RETARGET_COMPILE_<LAYER>` to 1 before any include: there, and only there, the layer's
/// definitions are compiled out of line and its `extern template` declarations become explicit
/// instantiation definitions.

#if defined(RETARGET_SEPARATE_COMPILATION)
#define RETARGET_HEADER_ONLY 0
#define RETARGET_DECL
#else
#define RETARGET_HEADER_ONLY 1
#define RETARGET_DECL inline
#endif

// Lazy definitions: a function declared with RETARGET_LAZY_DECL and defined with RETARGET_LAZY_DEF
// (in place of RETARGET_DECL) is a function template in header-only mode, `template <typename
// RetargetLazy = void>`, called exactly as before (the parameter is never deduced and defaults to
// void). A non-template inline function has its body checked, and every template it uses
// instantiated, in each translation unit that includes its header, whether or not it is called;
// a template's body is compiled only where it is used. Used for definitions whose bodies are
// expensive to compile (Eigen decompositions, large readers). In the compiled part and for a
// program linking it, both macros are empty: the function is an ordinary out-of-line function.
#if RETARGET_HEADER_ONLY
#define RETARGET_LAZY_DECL template <typename RetargetLazy = void>
#define RETARGET_LAZY_DEF template <typename RetargetLazy>
#else
#define RETARGET_LAZY_DECL
#define RETARGET_LAZY_DEF
#endif

// Lazy in both modes: RETARGET_ALWAYS_LAZY_DECL / RETARGET_ALWAYS_LAZY_DEF make a function the
// template `template <typename RetargetLazy = void>` whether the program is header-only or links
// the compiled part. For the headers no src/<layer>.cpp compiles: the application layer (app/)
// and the optional parts' (json/, urdf/), which need a dependency retarget::compiled does not
// have. Their functions stay in the header, and are compiled only in the translation units that
// call them, in both modes. A function-local static of such a function is still one per program:
// there is one specialization, RetargetLazy = void. Written once where the function is declared
// and defined together (DECL), or DECL on the declaration and DEF on the later definition.
#define RETARGET_ALWAYS_LAZY_DECL template <typename RetargetLazy = void>
#define RETARGET_ALWAYS_LAZY_DEF template <typename RetargetLazy>

// One pair per layer: RETARGET_DEFINE_<LAYER> (1 where the layer's non-template definitions are
// compiled) and RETARGET_TEMPLATE_<LAYER> (`template` in the layer's own source, `extern
// template` elsewhere). RETARGET_COMPILE_<LAYER> is undefined, hence 0, outside src/<layer>.cpp.
#if RETARGET_HEADER_ONLY || RETARGET_COMPILE_CORE
#define RETARGET_DEFINE_CORE 1
#else
#define RETARGET_DEFINE_CORE 0
#endif
#if RETARGET_HEADER_ONLY || RETARGET_COMPILE_KINEMATICS
#define RETARGET_DEFINE_KINEMATICS 1
#else
#define RETARGET_DEFINE_KINEMATICS 0
#endif
#if RETARGET_HEADER_ONLY || RETARGET_COMPILE_GEOMETRY
#define RETARGET_DEFINE_GEOMETRY 1
#else
#define RETARGET_DEFINE_GEOMETRY 0
#endif
#if RETARGET_HEADER_ONLY || RETARGET_COMPILE_FILTERS
#define RETARGET_DEFINE_FILTERS 1
#else
#define RETARGET_DEFINE_FILTERS 0
#endif
#if RETARGET_HEADER_ONLY || RETARGET_COMPILE_HUMAN
#define RETARGET_DEFINE_HUMAN 1
#else
#define RETARGET_DEFINE_HUMAN 0
#endif
#if RETARGET_HEADER_ONLY || RETARGET_COMPILE_ROBOTS
#define RETARGET_DEFINE_ROBOTS 1
#else
#define RETARGET_DEFINE_ROBOTS 0
#endif
#if RETARGET_HEADER_ONLY || RETARGET_COMPILE_IO
#define RETARGET_DEFINE_IO 1
#else
#define RETARGET_DEFINE_IO 0
#endif
#if RETARGET_HEADER_ONLY || RETARGET_COMPILE_MAPPERS
#define RETARGET_DEFINE_MAPPERS 1
#else
#define RETARGET_DEFINE_MAPPERS 0
#endif
#if RETARGET_HEADER_ONLY || RETARGET_COMPILE_METRICS
#define RETARGET_DEFINE_METRICS 1
#else
#define RETARGET_DEFINE_METRICS 0
#endif
#if RETARGET_HEADER_ONLY || RETARGET_COMPILE_LEARNING
#define RETARGET_DEFINE_LEARNING 1
#else
#define RETARGET_DEFINE_LEARNING 0
#endif
#if RETARGET_HEADER_ONLY || RETARGET_COMPILE_CONTROL
#define RETARGET_DEFINE_CONTROL 1
#else
#define RETARGET_DEFINE_CONTROL 0
#endif
#if RETARGET_HEADER_ONLY || RETARGET_COMPILE_SAFETY
#define RETARGET_DEFINE_SAFETY 1
#else
#define RETARGET_DEFINE_SAFETY 0
#endif

#if RETARGET_COMPILE_CORE
#define RETARGET_TEMPLATE_CORE template
#else
#define RETARGET_TEMPLATE_CORE extern template
#endif
#if RETARGET_COMPILE_KINEMATICS
#define RETARGET_TEMPLATE_KINEMATICS template
#else
#define RETARGET_TEMPLATE_KINEMATICS extern template
#endif
#if RETARGET_COMPILE_GEOMETRY
#define RETARGET_TEMPLATE_GEOMETRY template
#else
#define RETARGET_TEMPLATE_GEOMETRY extern template
#endif
#if RETARGET_COMPILE_FILTERS
#define RETARGET_TEMPLATE_FILTERS template
#else
#define RETARGET_TEMPLATE_FILTERS extern template
#endif
#if RETARGET_COMPILE_HUMAN
#define RETARGET_TEMPLATE_HUMAN template
#else
#define RETARGET_TEMPLATE_HUMAN extern template
#endif
#if RETARGET_COMPILE_ROBOTS
#define RETARGET_TEMPLATE_ROBOTS template
#else
#define RETARGET_TEMPLATE_ROBOTS extern template
#endif
#if RETARGET_COMPILE_IO
#define RETARGET_TEMPLATE_IO template
#else
#define RETARGET_TEMPLATE_IO extern template
#endif
#if RETARGET_COMPILE_MAPPERS
#define RETARGET_TEMPLATE_MAPPERS template
#else
#define RETARGET_TEMPLATE_MAPPERS extern template
#endif
#if RETARGET_COMPILE_METRICS
#define RETARGET_TEMPLATE_METRICS template
#else
#define RETARGET_TEMPLATE_METRICS extern template
#endif
#if RETARGET_COMPILE_LEARNING
#define RETARGET_TEMPLATE_LEARNING template
#else
#define RETARGET_TEMPLATE_LEARNING extern template
#endif
#if RETARGET_COMPILE_CONTROL
#define RETARGET_TEMPLATE_CONTROL template
#else
#define RETARGET_TEMPLATE_CONTROL extern template
#endif
#if RETARGET_COMPILE_SAFETY
#define RETARGET_TEMPLATE_SAFETY template
#else
#define RETARGET_TEMPLATE_SAFETY extern template
#endif
