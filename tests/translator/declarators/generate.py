#!/usr/bin/env python3
"""The declarator matrix: captured variables of every declarator kind in
every role a @dowork offers them.

For each declarator kind (a plain scalar, an array, a pointer, a pointer to
array, a reference to array, a function pointer, a member pointer, `auto`,
a dependent type in a template, typedef/using aliases, const and volatile
qualified, an attribute; and the C++ kinds of issue 35: lambdas stateless,
capturing by value and by reference, const and generic, a function
reference, std::function, a function object; std::span of const and
non-const elements, std::string_view, std::vector by reference and by const
reference, a vector's const_iterator, a struct with a pointer member) this
writes one @task function per role the kind can take, into the program of
its group (GROUPS), `<group>.tcpp`:

  part_in    read by a part (not the first) of @dowork { }
  part_out   written by a part (copied in and back)
  loop_in    read by the body of @dowork for
  reduction  named in reduction(+: x)
  copy       copy(x[0:len]) (a part and a loop)
  copyout    copyout(x[0:len]) (a loop writing its elements)
  shared     shared(x)
  wind       used by @wind(before, after) in the body of @dowork for (a
             value only by before and after, which Clang never parses: it
             must travel with the piece all the same)
  lazy       a parameter of a lazy function (parts and a loop that are
             calls), saved and restored when the function unwinds
  element_write    @dowork for (int i = 0; i < N; ++i) x[i] = f(i); with no
                   clause: a per-iteration write (row x[i][0] of a pointer
                   to arrays)
  range_for        @dowork reduction(+: s) for (const auto& e : x) and
                   for (long e : x)
  range_for_write  @dowork for (auto& e : x) e = ...;

(For a callable, R is a call x(n): part_in, loop_in and wind call it in a
part, a loop body and a wind. Lazy against eager: run.py builds every
program as translated, where the functions of `lazy` shape are lazy, and
with --eager; and runs the lazy g++ build on 2 processes.)

Left out of the run matrix:
- roles a kind cannot take in C++: a clause (copy, copyout, shared) on
  anything but a pointer; a reduction over anything but a number; a write
  to a const (pointer_const, reference_to_const_array, span_const,
  string_view, vector_const_ref, lambda_const); part_out of a lambda (a
  lambda with captures cannot be assigned); range loops over a pointer, an
  iterator, a view struct or a 2-D array (no range of longs); element_write
  and range_for_write through a const view;
- lazy for every kind whose value is not a scalar (arrays, classes,
  references, lambdas: a lazy frame saves numbers, enumerations and
  pointers; a function with a lambda in it is not lazy either);
- what the language refuses, each with a test in
  tests/translator/diagnostics/: a pointer without a clause
  (pointer_without_clause_*), a volatile variable in any role
  (volatile_capture_*), a write at an element the iteration does not own
  (element_write_other_index, element_write_not_owned; span_written_in_loop
  for a span), a range written through its elements and used in the body
  (range_element_and_range), a part writing what a span views
  (span_written_in_part), a reference to a lambda (reference_to_lambda), a
  lambda writing what it captures by reference, called in a piece
  (lambda_writes_capture).

usage: generate.py OUTDIR            (every group of kinds: GROUPS)
       generate.py OUTDIR KIND ROLE  (one function, with its main: to
                                      find which combination fails)
       generate.py --list            (kinds and their roles)
       generate.py --groups          (groups and their kinds)
"""
import os
import re
import sys

# A kind: how a variable `x` of it is declared (as a parameter, or as a
# local of the function when `local`), what main passes for it, how a piece
# reads it as a long (`R`), writes it (`W`: a statement adding v to it) and
# writes element i of what it points to (`WI`), the length of the section
# of a pointer kind (`L`), and its roles.
VALUE_ROLES = ["part_in", "part_out", "loop_in", "wind"]
POINTER_ROLES = ["copy", "copyout", "shared", "wind"]
VALUE_IN_ROLES = ["part_in", "loop_in", "wind"]
CALLABLE_ROLES = ["part_in", "loop_in", "wind"]
# Per-iteration writes of a C array (E: element i, N: the elements, WI:
# writing v to element i) and range loops over it.
ARRAY_ROLES = ["element_write", "range_for", "range_for_write"]

KINDS = {
    "scalar": dict(param="long x", arg="5L", R="x", W="x += v",
                   roles=VALUE_ROLES + ["reduction", "lazy"]),
    "array": dict(local="long x[4] = {1, 2, 3, 4};", R="(x[0] + x[3])", W="x[1] += v",
                  E="x[i]", WI="x[i] = v", N="4", roles=VALUE_ROLES + ARRAY_ROLES),
    "array_2d": dict(local="char x[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};", R="(x[1][2] + x[0][3])",
                     W="x[1][1] = static_cast<char>(x[1][1] + v)", E="x[i][0]",
                     WI="x[i][0] = static_cast<char>(v)", N="2", roles=VALUE_ROLES + ["element_write"]),
    "pointer": dict(param="long* x", arg="g_longs", R="(x[0] + x[3])", WI="x[i] = v", W="x[0] += v", L="4",
                    E="x[i]", N="4", roles=POINTER_ROLES + ["lazy", "element_write"]),
    "pointer_const": dict(param="const long* x", arg="g_longs", R="(x[0] + x[3])", L="4",
                          roles=["copy", "shared", "lazy"]),
    "pointer_to_array": dict(param="char (*x)[4]", arg="g_board", R="(x[1][2] + x[0][3])",
                             WI="x[i][0] = static_cast<char>(v)", W="x[0][1] = static_cast<char>(x[0][1] + v)",
                             L="2", E="x[i][0]", N="2", roles=POINTER_ROLES + ["lazy", "element_write"]),
    "pointer_to_const_array": dict(param="const char (*x)[4]", arg="g_board", R="(x[1][2] + x[0][3])", L="2",
                                   roles=["copy", "shared", "lazy"]),
    "const_pointer_to_array": dict(param="char (*const x)[4]", arg="g_board", R="(x[1][2] + x[0][3])",
                                   WI="x[i][0] = static_cast<char>(v)", L="2", E="x[i][0]", N="2",
                                   roles=["copy", "copyout", "shared", "lazy", "element_write"]),
    "reference_to_array": dict(param="long (&x)[4]", arg="g_longs", R="(x[0] + x[3])", W="x[1] += v",
                               E="x[i]", WI="x[i] = v", N="4", roles=VALUE_ROLES + ARRAY_ROLES),
    "reference_to_const_array": dict(param="const long (&x)[4]", arg="g_longs", R="(x[0] + x[3])", E="x[i]",
                                     roles=["part_in", "loop_in", "wind", "range_for"]),
    "function_pointer": dict(param="long (*x)(long)", arg="&triple", R="x(3)", roles=["shared", "lazy"]),
    "member_pointer": dict(param="long pair::* x", arg="&pair::second", R="(g_pair.*x)",
                           W="x = (v % 2 ? &pair::first : &pair::second)",
                           roles=VALUE_ROLES),  # not lazy: a frame saves numbers, enumerations and pointers
    "auto": dict(local="auto x = 7L;", R="x", W="x += v", roles=VALUE_ROLES + ["reduction"]),
    "dependent": dict(template="template <class T> ", param="T x", arg="5L", R="static_cast<long>(x)",
                      W="x += static_cast<T>(v)", roles=VALUE_ROLES + ["reduction"]),
    "dependent_pointer_to_array": dict(template="template <class T> ", param="T (*x)[4]", arg="g_board",
                                       R="(x[1][2] + x[0][3])", WI="x[i][0] = static_cast<T>(v)", L="2",
                                       E="x[i][0]", N="2", roles=["copy", "copyout", "shared", "element_write"]),
    "typedef": dict(param="number x", arg="5L", R="x", W="x += v",
                    roles=VALUE_ROLES + ["reduction", "lazy"]),
    "using_row_pointer": dict(param="row* x", arg="g_board", R="(x[1][2] + x[0][3])",
                              WI="x[i][0] = static_cast<char>(v)", W="x[0][1] = static_cast<char>(x[0][1] + v)",
                              L="2", E="x[i][0]", N="2", roles=POINTER_ROLES + ["lazy", "element_write"]),
    "using_array": dict(local="quad x = {1, 2, 3, 4};", R="(x[0] + x[3])", W="x[1] += v", E="x[i]", WI="x[i] = v",
                        N="4", roles=VALUE_ROLES + ARRAY_ROLES),
    "const": dict(param="const long x", arg="5L", R="x", roles=["part_in", "loop_in", "wind", "lazy"]),
    # A volatile variable is refused in every role (a piece would get a
    # copy): diagnostics/volatile_capture_*.tcpp. What it points to may be.
    "pointer_to_volatile": dict(param="volatile long* x", arg="g_longs", R="(x[0] + x[3])", roles=["shared"]),
    "attribute": dict(param="[[maybe_unused]] long x", arg="5L", R="x", W="x += v",
                      roles=VALUE_ROLES + ["reduction", "lazy"]),
    # Callables (issue 35): R calls x in a part, a loop body and a wind.
    "lambda_stateless": dict(local="auto x = [](long v) { return 3 * v; };", R="x(n)", roles=CALLABLE_ROLES),
    "lambda_by_value": dict(local="long k = 3;\n  auto x = [k](long v) { return k * v; };", R="x(n)",
                            roles=CALLABLE_ROLES),
    "lambda_by_reference": dict(local="long k = 3;\n  auto x = [&k](long v) { return k * v; };", R="x(n)",
                                roles=CALLABLE_ROLES),
    "lambda_const": dict(local="const auto x = [](long v) { return 3 * v; };", R="x(n)", roles=CALLABLE_ROLES),
    "lambda_generic": dict(local="auto x = [](auto v) { return 3 * v; };", R="x(n)", roles=CALLABLE_ROLES),
    "function_reference": dict(param="long (&x)(long)", arg="triple", R="x(n)", roles=CALLABLE_ROLES),
    "std_function": dict(param="std::function<long(long)> x", arg="triple", R="x(n)",
                         W="x = [v](long w) { return 3 * w + v; }", include="<functional>",
                         roles=CALLABLE_ROLES + ["part_out"]),
    "function_object": dict(param="tripler x", arg="tripler{3}", R="x(n)", W="x.k += v",
                            roles=CALLABLE_ROLES + ["part_out"]),
    # Views and holders of addresses (issue 35): they view g_vec, g_longs
    # and g_text.
    "span_const": dict(param="std::span<const long> x", arg="std::span<const long>(g_vec)", R="(x[0] + x[3])",
                       E="x[i]", include="<span>", roles=VALUE_IN_ROLES + ["range_for"]),
    "span": dict(param="std::span<long> x", arg="std::span<long>(g_span)", R="(x[0] + x[3])", E="x[i]",
                 WI="x[i] = v", N="static_cast<int>(x.size())", include="<span>",
                 roles=VALUE_IN_ROLES + ["element_write", "range_for", "range_for_write"]),
    "string_view": dict(param="std::string_view x", arg="std::string_view(g_text)",
                        R="(static_cast<long>(x.size()) + x[1])", E="x[i]", include="<string_view>",
                        roles=VALUE_IN_ROLES + ["range_for"]),
    "vector_ref": dict(param="std::vector<long>& x", arg="g_vec", R="(x[0] + x[3])", W="x[1] += v", E="x[i]",
                       WI="x[i] = v", N="static_cast<int>(x.size())",
                       roles=VALUE_ROLES + ["element_write", "range_for", "range_for_write"]),
    "vector_const_ref": dict(param="const std::vector<long>& x", arg="g_vec", R="(x[0] + x[3])", E="x[i]",
                             roles=VALUE_IN_ROLES + ["range_for"]),
    "iterator": dict(param="std::vector<long>::const_iterator x", arg="g_vec.cbegin()", R="(x[0] + x[3])",
                     W="x += v % 2", roles=VALUE_ROLES),
    "view_struct": dict(param="view x", arg="view{g_longs, 4}", R="(x.p[0] + x.p[x.n - 1])", W="x.n -= v % 2",
                        roles=VALUE_ROLES),
}

# The run matrix's programs: a test builds one program of several kinds (a
# build's fixed cost, the runtime's headers, is paid once for them all);
# `generate.py OUTDIR KIND ROLE` still writes one kind and role alone.
GROUPS = {
    "values": ["scalar", "auto", "typedef", "attribute", "const", "dependent"],
    "arrays": ["array", "array_2d", "using_array", "reference_to_array", "reference_to_const_array"],
    "pointers": ["pointer", "pointer_const", "pointer_to_volatile", "function_pointer", "member_pointer"],
    "pointers_to_arrays": ["pointer_to_array", "pointer_to_const_array", "const_pointer_to_array",
                           "dependent_pointer_to_array", "using_row_pointer"],
    "lambdas": ["lambda_stateless", "lambda_by_value", "lambda_by_reference", "lambda_const", "lambda_generic",
                "function_reference", "std_function", "function_object"],
    "views": ["span_const", "span", "string_view", "vector_ref", "vector_const_ref", "iterator", "view_struct"],
}

PRELUDE = """\
#include <cstdio>
#include <vector>
INCLUDES
long g_longs[4] = {1, 2, 3, 4};
char g_board[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
struct pair { long first, second; };
pair g_pair = {11, 13};
long triple(long v) { return 3 * v; }
typedef long number;
using row = char[4];
using quad = long[4];
std::vector<long> g_vec = {1, 2, 3, 4, 5, 6, 7, 8};
std::vector<long> g_span = {1, 2, 3, 4, 5, 6, 7, 8};  // written by span's functions only
char g_text[] = "tascell";
struct tripler { long k; long operator()(long v) const { return k * v; } };
struct view { const long* p; long n; };

// Work at each leaf (the same answer): a root call lasts a few
// milliseconds, long enough for pieces to go to the other process under
// mpirun (run.py).
long settle(long n) {
  volatile long w = 0;
  for (int k = 0; k < 10000; ++k) w = w + k;
  return n;
}

@task long leaf(int n) {
  if (n < 2) return settle(n);
  long a = 0, b = 0;
  @dowork {
    a = leaf(n - 1);
    b = leaf(n - 2);
  }
  return a + b;
}

"""


def sub(text, k):
    for key in ["R", "W", "WI", "L", "E", "N"]:
        text = text.replace("@" + key + "@", "(" + k.get(key, "") + ")" if key in ("R", "E") else k.get(key, ""))
    return text


def function(kind, role):
    """The @task function of this kind in this role, and main's call of it."""
    k = KINDS[kind]
    name = "%s_%s" % (kind, role)
    tmpl = k.get("template", "")
    local = "  " + k["local"] + "\n" if "local" in k else ""
    params = "int n" + (", " + k["param"] if "param" in k else "")
    pass_x = ", x" if "param" in k else ""
    arg = ", " + k["arg"] if "param" in k else ""
    head = "%s@task long %s(%s) {\n%s" % (tmpl, name, params, local)
    name_call = name
    if role == "part_in":
        body = """  if (n < 2) return n + @R@;
  long a = 0, b = 0;
  @dowork {
    a = NAME(n - 1PASS);
    b = NAME(n - 2PASS) + @R@;
  }
  return a + b;
"""
    elif role == "part_out":
        body = """  if (n < 2) return n + @R@;
  long a = 0, b = 0;
  @dowork {
    a = leaf(n);
    {
      b = leaf(n - 1);
      long v = b % 7;
      @W@;
    }
  }
  return a + b + @R@;
"""
    elif role == "loop_in":
        body = """  long s = 0;
  @dowork reduction(+: s)
  for (int i = 0; i < n; ++i) s += leaf(i % 12) + @R@;
  return s;
"""
    elif role == "reduction":
        # x is a local of the kind (a parameter kind's declaration with "= 0")
        decl = k["local"].split("=")[0].strip() if "local" in k else k["param"]
        head = "%s@task long %s(int n) {\n" % (tmpl, name)
        body = """  long s = 0;
  {
    DECL = 0;
    @dowork reduction(+: x)
    for (int i = 0; i < n; ++i) x += leaf(i % 12);
    s = static_cast<long>(x);
  }
  return s;
""".replace("DECL", decl)
        arg = ""
        if tmpl:
            name_call = name + "<long>"
    elif role == "copy":
        body = """  if (n < 2) return n + @R@;
  long a = 0, b = 0, s = 0;
  @dowork copy(x[0:@L@]) {
    a = NAME(n - 1, x);
    b = NAME(n - 2, x) + @R@;
  }
  @dowork reduction(+: s) copy(x[0:@L@])
  for (int i = 0; i < 8; ++i) s += @R@ + i;
  return a + b + s;
"""
    elif role == "copyout":
        body = """  @dowork copyout(x[0:@L@])
  for (int i = 0; i < @L@; ++i) {
    long v = leaf(n + i) % 100;
    @WI@;
  }
  return @R@;
"""
    elif role == "shared":
        body = """  if (n < 2) return n + @R@;
  long a = 0, b = 0, s = 0;
  @dowork shared(x) {
    a = NAME(n - 1, x);
    b = NAME(n - 2, x) + @R@;
  }
  @dowork reduction(+: s) shared(x)
  for (int i = 0; i < 8; ++i) s += @R@ + i;
  return a + b + s;
"""
    elif role == "wind":
        if "L" in k:  # through the pointer, as nqueens does: a copy each piece changes and restores
            if "W" not in k:
                raise SystemExit("%s: wind needs W" % kind)
            body = """  long s = 0;
  @dowork reduction(+: s) copy(x[0:@L@])
  for (int i = 0; i < n; ++i) {
    long v = i % 3;
    @wind(@W@, @W_UNDO@) {
      s += leaf(i % 10) + @R@;
    }
  }
  return s;
"""
            body = body.replace("@W_UNDO@", k["W"].replace("+ v", "- v").replace("+= v", "-= v"))
        else:  # read by the wind's before and after
            body = """  long s = 0;
  @dowork reduction(+: s)
  for (int i = 0; i < n; ++i) {
    long acc = 0;
    @wind(acc += @R@, acc -= @R@) {
      s += leaf(i % 10) + acc;
    }
  }
  return s;
"""
    elif role == "lazy":
        clause = " shared(x)" if "L" in k or kind == "function_pointer" else ""
        body = """  if (n < 2) return n + @R@;
  long a = 0, b = 0, s = 0;
  @dowork CLAUSE {
    a = NAME(n - 1, x);
    b = NAME(n - 2, x);
  }
  @dowork reduction(+: s)CLAUSE
  for (int i = 0; i < 4; ++i) {
    s += NAME(n / 2, x);
  }
  return a + b + s + @R@;
"""
        body = body.replace("CLAUSE", clause)
    elif role == "element_write":
        # a per-iteration write with no clause: iteration i owns x[i]
        body = """  @dowork for (int i = 0; i < @N@; ++i) @WI_CALL@;
  long s = 0;
  for (int i = 0; i < @N@; ++i) s += @E@;
  return s;
"""
        body = body.replace("@WI_CALL@", re.sub(r"\bv\b", "(leaf(n + i % 4) % 100 + i)", k["WI"]))
    elif role == "range_for":
        body = """  long s = 0;
  @dowork reduction(+: s)
  for (const auto& e : x) s += leaf(n % 12) + static_cast<long>(e);
  @dowork reduction(+: s)
  for (long e : x) s += 2 * e + n;
  return s;
"""
    elif role == "range_for_write":
        body = """  @dowork for (auto& e : x) e = e % 50 + leaf(n % 10);
  long s = 0;
  for (const auto& e : x) s += e;
  return s;
"""
    else:
        raise SystemExit("unknown role " + role)
    if role == "part_in" and "&" in k.get("param", "") and "const" not in k["param"]:
        pass_x = arg  # passing x by non-const reference would write it in the first part
    body = sub(body, k).replace("NAME", name).replace("PASS", pass_x)
    size = {"loop_in": 24, "reduction": 24, "wind": 24, "copyout": 12, "lazy": 11, "element_write": 10,
            "range_for": 13, "range_for_write": 13}.get(role, 14)
    call = "  std::printf(\"%s = %%ld\\n\", %s(%d%s));\n" % (name, name_call, size, arg)
    if role == "copyout":  # a root call's writes are in process 0
        call += "  if (tascell::is_root()) std::printf(\"  then %ld %ld %ld %ld\\n\", g_longs[0] + g_longs[1], g_longs[2] + g_longs[3], " \
                "static_cast<long>(g_board[0][0]), static_cast<long>(g_board[1][0]));\n"
    return head + body + "}\n\n", call


def program(kind, roles):
    """The program of one kind in these roles."""
    return program_of([(kind, roles)])


def program_of(kinds_roles):
    """One program of several kinds: [(kind, roles), ...]."""
    names = ", ".join(kind for kind, _ in kinds_roles)
    includes = sorted({KINDS[kind]["include"] for kind, _ in kinds_roles if "include" in KINDS[kind]})
    text = "// Generated by tests/translator/declarators/generate.py: %s.\n" % names + \
        PRELUDE.replace("INCLUDES\n", "".join("#include %s\n" % i for i in includes) + "\n")
    calls = ""
    for kind, roles in kinds_roles:
        for role in roles:
            f, c = function(kind, role)
            text += f
            calls += c
    return text + "int main() {\n" + calls + "}\n"


def group_program(group):
    return program_of([(kind, KINDS[kind]["roles"]) for kind in GROUPS[group]])


def main():
    if sys.argv[1:] == ["--list"]:
        for kind, k in KINDS.items():
            print(kind, " ".join(k["roles"]))
        return
    if sys.argv[1:] == ["--groups"]:
        grouped = [kind for kinds in GROUPS.values() for kind in kinds]
        missing = [kind for kind in KINDS if kind not in grouped]
        if missing or len(grouped) != len(set(grouped)):
            raise SystemExit("generate.py: every kind must be in one group: %s" % (missing or grouped))
        for group, kinds in GROUPS.items():
            print(group, " ".join(kinds))
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    if len(sys.argv) == 4:
        kind, role = sys.argv[2:]
        path = os.path.join(out, "%s.%s.tcpp" % (kind, role))
        open(path, "w").write(program(kind, [role]))
        print(path)
        return
    for group in GROUPS:
        path = os.path.join(out, group + ".tcpp")
        text = group_program(group)
        if not os.path.exists(path) or open(path).read() != text:
            open(path, "w").write(text)
        print(path)


if __name__ == "__main__":
    main()
