#!/usr/bin/env python3
"""The declarator matrix: captured variables of every declarator kind in
every role a @dowork offers them.

For each declarator kind (a plain scalar, an array, a pointer, a pointer to
array, a reference to array, a function pointer, a member pointer, `auto`,
a dependent type in a template, typedef/using aliases, const and volatile
qualified, an attribute) this writes one @task function per role the kind
can take, into the program of its group (GROUPS), `<group>.tcpp`:

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

(lazy against eager: run.py builds every program as translated, where the
functions of `lazy` shape are lazy, and with --eager.)

A role a kind cannot take (a pointer without a clause, a clause on a value,
a reduction over an array, a write to a const) is not in the run matrix;
those the language refuses have tests in tests/translator/diagnostics/
(a pointer or function pointer without a clause, a volatile variable in any
role).

usage: generate.py OUTDIR            (every group of kinds: GROUPS)
       generate.py OUTDIR KIND ROLE  (one function, with its main: to
                                      find which combination fails)
       generate.py --list            (kinds and their roles)
       generate.py --groups          (groups and their kinds)
"""
import os
import sys

# A kind: how a variable `x` of it is declared (as a parameter, or as a
# local of the function when `local`), what main passes for it, how a piece
# reads it as a long (`R`), writes it (`W`: a statement adding v to it) and
# writes element i of what it points to (`WI`), the length of the section
# of a pointer kind (`L`), and its roles.
VALUE_ROLES = ["part_in", "part_out", "loop_in", "wind"]
POINTER_ROLES = ["copy", "copyout", "shared", "wind"]

KINDS = {
    "scalar": dict(param="long x", arg="5L", R="x", W="x += v",
                   roles=VALUE_ROLES + ["reduction", "lazy"]),
    "array": dict(local="long x[4] = {1, 2, 3, 4};", R="(x[0] + x[3])", W="x[1] += v",
                  roles=VALUE_ROLES),
    "array_2d": dict(local="char x[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};", R="(x[1][2] + x[0][3])",
                     W="x[1][1] = static_cast<char>(x[1][1] + v)", roles=VALUE_ROLES),
    "pointer": dict(param="long* x", arg="g_longs", R="(x[0] + x[3])", WI="x[i] = v", W="x[0] += v", L="4",
                    roles=POINTER_ROLES + ["lazy"]),
    "pointer_const": dict(param="const long* x", arg="g_longs", R="(x[0] + x[3])", L="4",
                          roles=["copy", "shared", "lazy"]),
    "pointer_to_array": dict(param="char (*x)[4]", arg="g_board", R="(x[1][2] + x[0][3])",
                             WI="x[i][0] = static_cast<char>(v)", W="x[0][1] = static_cast<char>(x[0][1] + v)",
                             L="2", roles=POINTER_ROLES + ["lazy"]),
    "pointer_to_const_array": dict(param="const char (*x)[4]", arg="g_board", R="(x[1][2] + x[0][3])", L="2",
                                   roles=["copy", "shared", "lazy"]),
    "const_pointer_to_array": dict(param="char (*const x)[4]", arg="g_board", R="(x[1][2] + x[0][3])",
                                   WI="x[i][0] = static_cast<char>(v)", L="2", roles=["copy", "copyout", "shared", "lazy"]),
    "reference_to_array": dict(param="long (&x)[4]", arg="g_longs", R="(x[0] + x[3])", W="x[1] += v",
                               roles=VALUE_ROLES),
    "reference_to_const_array": dict(param="const long (&x)[4]", arg="g_longs", R="(x[0] + x[3])",
                                     roles=["part_in", "loop_in", "wind"]),
    "function_pointer": dict(param="long (*x)(long)", arg="&triple", R="x(3)", roles=["shared", "lazy"]),
    "member_pointer": dict(param="long pair::* x", arg="&pair::second", R="(g_pair.*x)",
                           W="x = (v % 2 ? &pair::first : &pair::second)",
                           roles=VALUE_ROLES),  # not lazy: a frame saves numbers, enumerations and pointers
    "auto": dict(local="auto x = 7L;", R="x", W="x += v", roles=VALUE_ROLES + ["reduction"]),
    "dependent": dict(template="template <class T> ", param="T x", arg="5L", R="static_cast<long>(x)",
                      W="x += static_cast<T>(v)", roles=VALUE_ROLES + ["reduction"]),
    "dependent_pointer_to_array": dict(template="template <class T> ", param="T (*x)[4]", arg="g_board",
                                       R="(x[1][2] + x[0][3])", WI="x[i][0] = static_cast<T>(v)", L="2",
                                       roles=["copy", "copyout", "shared"]),
    "typedef": dict(param="number x", arg="5L", R="x", W="x += v",
                    roles=VALUE_ROLES + ["reduction", "lazy"]),
    "using_row_pointer": dict(param="row* x", arg="g_board", R="(x[1][2] + x[0][3])",
                              WI="x[i][0] = static_cast<char>(v)", W="x[0][1] = static_cast<char>(x[0][1] + v)",
                              L="2", roles=POINTER_ROLES + ["lazy"]),
    "using_array": dict(local="quad x = {1, 2, 3, 4};", R="(x[0] + x[3])", W="x[1] += v", roles=VALUE_ROLES),
    "const": dict(param="const long x", arg="5L", R="x", roles=["part_in", "loop_in", "wind", "lazy"]),
    # A volatile variable is refused in every role (a piece would get a
    # copy): diagnostics/volatile_capture_*.tcpp. What it points to may be.
    "pointer_to_volatile": dict(param="volatile long* x", arg="g_longs", R="(x[0] + x[3])", roles=["shared"]),
    "attribute": dict(param="[[maybe_unused]] long x", arg="5L", R="x", W="x += v",
                      roles=VALUE_ROLES + ["reduction", "lazy"]),
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
}

PRELUDE = """\
#include <cstdio>

long g_longs[4] = {1, 2, 3, 4};
char g_board[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
struct pair { long first, second; };
pair g_pair = {11, 13};
long triple(long v) { return 3 * v; }
typedef long number;
using row = char[4];
using quad = long[4];

@task long leaf(int n) {
  if (n < 2) return n;
  long a = 0, b = 0;
  @dowork {
    a = leaf(n - 1);
    b = leaf(n - 2);
  }
  return a + b;
}

"""


def sub(text, k):
    for key in ["R", "W", "WI", "L"]:
        text = text.replace("@" + key + "@", "(" + k[key] + ")" if key == "R" else k.get(key, ""))
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
    else:
        raise SystemExit("unknown role " + role)
    if role == "part_in" and "&" in k.get("param", "") and "const" not in k["param"]:
        pass_x = arg  # passing x by non-const reference would write it in the first part
    body = sub(body, k).replace("NAME", name).replace("PASS", pass_x)
    size = {"loop_in": 24, "reduction": 24, "wind": 24, "copyout": 12, "lazy": 11}.get(role, 14)
    call = "  std::printf(\"%s = %%ld\\n\", %s(%d%s));\n" % (name, name_call, size, arg)
    if role == "copyout":
        call += "  std::printf(\"  then %ld %ld %ld %ld\\n\", g_longs[0] + g_longs[1], g_longs[2] + g_longs[3], " \
                "static_cast<long>(g_board[0][0]), static_cast<long>(g_board[1][0]));\n"
    return head + body + "}\n\n", call


def program(kind, roles):
    """The program of one kind in these roles."""
    return program_of([(kind, roles)])


def program_of(kinds_roles):
    """One program of several kinds: [(kind, roles), ...]."""
    names = ", ".join(kind for kind, _ in kinds_roles)
    text = "// Generated by tests/translator/declarators/generate.py: %s.\n" % names + PRELUDE
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
