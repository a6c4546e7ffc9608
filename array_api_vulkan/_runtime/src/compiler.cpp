#include "compiler.hpp"

#include <mutex>

#ifdef AVK_HAVE_GLSLANG
#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>
#endif

namespace avk {

#ifdef AVK_HAVE_GLSLANG
namespace {
std::once_flag init_once;
// glslang's parser keeps per-thread pools, but its symbol-table setup is not safe to race;
// one compile at a time costs nothing next to the compile itself.
std::mutex compile_mutex;
}  // namespace

bool compiler_available() { return true; }

std::mutex& compiler_mutex() { return compile_mutex; }

void ensure_compiler()
{
    std::call_once(init_once, [] {
        glslang_initialize_process();
    });
}

py::bytes compile_glsl(const std::string& source, const std::string& name)
{
    ensure_compiler();
    std::string log;
    std::vector<uint32_t> words;
    bool ok = false;
    {
        py::gil_scoped_release release;
        std::lock_guard<std::mutex> lock(compile_mutex);
        glslang_input_t input = {};
        input.language = GLSLANG_SOURCE_GLSL;
        input.stage = GLSLANG_STAGE_COMPUTE;
        input.client = GLSLANG_CLIENT_VULKAN;
        input.client_version = GLSLANG_TARGET_VULKAN_1_2;
        input.target_language = GLSLANG_TARGET_SPV;
        input.target_language_version = GLSLANG_TARGET_SPV_1_5;
        input.code = source.c_str();
        input.default_version = 460;
        input.default_profile = GLSLANG_NO_PROFILE;
        input.messages = GLSLANG_MSG_DEFAULT_BIT;
        input.resource = glslang_default_resource();
        glslang_shader_t* shader = glslang_shader_create(&input);
        glslang_program_t* program = nullptr;
        if (!glslang_shader_preprocess(shader, &input) || !glslang_shader_parse(shader, &input)) {
            log = glslang_shader_get_info_log(shader);
        } else {
            program = glslang_program_create();
            glslang_program_add_shader(program, shader);
            if (!glslang_program_link(program, GLSLANG_MSG_SPV_RULES_BIT | GLSLANG_MSG_VULKAN_RULES_BIT)) {
                log = glslang_program_get_info_log(program);
            } else {
                glslang_program_SPIRV_generate(program, GLSLANG_STAGE_COMPUTE);
                size_t n = glslang_program_SPIRV_get_size(program);
                words.resize(n);
                glslang_program_SPIRV_get(program, words.data());
                const char* msg = glslang_program_SPIRV_get_messages(program);
                if (msg && *msg)
                    log = msg;
                ok = n > 0;
            }
        }
        if (program)
            glslang_program_delete(program);
        glslang_shader_delete(shader);
    }
    if (!ok)
        throw py::value_error("glslang could not compile " + name + ":\n" + log);
    return py::bytes(reinterpret_cast<const char*>(words.data()), words.size() * sizeof(uint32_t));
}

#else

bool compiler_available() { return false; }
std::mutex& compiler_mutex()
{
    static std::mutex m;
    return m;
}
void ensure_compiler() { throw std::runtime_error("built without glslang: no run-time GLSL compiler"); }
py::bytes compile_glsl(const std::string&, const std::string& name)
{
    throw std::runtime_error("built without glslang: cannot compile " + name);
}

#endif

}  // namespace avk
