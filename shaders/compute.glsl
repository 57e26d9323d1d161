// Shared by every compute kernel.
//
// DYNAMIC(v) and DYNAMIC_FLAG(b): uniform v (b), with UNIFORM_VARIANTS (zink:
// Workarounds::uniform_variants) as a value no compiler can make a constant of the shader.
// Wherever a uniform alone decides a branch or the count of a loop, zink on a CPU device
// (lavapipe) compiles a variant of the shader per value of it ("inlined uniforms"), and Mesa
// 22.3's zink can then run the variant of an earlier value: `zink_bind_cs_state` never restores
// the pipeline key of the program it binds (it tests `comp != ctx->curr_compute` right after
// assigning one to the other), so when a compute program is bound again with values its current
// variant was made for, the pipeline is looked up without the variant in its key, and the first
// pipeline cached that way runs, whatever values it had (see tests/uniform_variants.rs). A zero
// taken from the dispatch size (every dispatch has one workgroup in z: Engine::dispatch) keeps
// such conditions from depending on uniforms alone. A flag is tested with z != 0 rather than
// with that zero: inside `if (RUNTIME_ZERO == 0)` the compiler would know the zero, and fold it
// out of every DYNAMIC value there. Elsewhere the uniforms are left as they are: the zero would
// hold a register through every loop.
#define RUNTIME_ZERO (int(gl_NumWorkGroups.z) - 1)
#ifdef UNIFORM_VARIANTS
#define DYNAMIC(v) ((v) + RUNTIME_ZERO)
#define DYNAMIC_FLAG(b) ((b) && gl_NumWorkGroups.z != 0u)
#else
#define DYNAMIC(v) (v)
#define DYNAMIC_FLAG(b) (b)
#endif
