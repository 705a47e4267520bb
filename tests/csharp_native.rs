//! `bindings/unity/Runtime/Native/Native.g.cs`, the C# P/Invoke layer, is
//! generated from `include/sinew.h` by the small translator below and checked
//! in; this test fails when it is stale. Regenerate with
//! `SINEW_BLESS=1 cargo test --test csharp_native` (after blessing the header).
//!
//! Why not csbindgen: it reads the Rust sources and resolves every type alias
//! to its target, so `SinewResult` would become a bare `int`; the binding
//! wants an int-backed `enum SinewResult`, and the header is the contract
//! engines see anyway. cbindgen's output is regular (one declaration per
//! item, `/** */` docs), so a line-based translation is enough; anything it
//! does not know (a `bool`, an unknown type) stops the test with a message
//! instead of being guessed.
//!
//! The translation, as csbindgen does it: `const T*` and `T*` become `T*`
//! (`SinewWorld**` stays), `uint32_t` `uint`, `int32_t` `int`, `uint64_t`
//! `ulong`, `uint8_t`/`char` `byte`, `size_t` `UIntPtr`, `float` `float`;
//! typedefs of integers resolve to the integer, except one whose name prefixes
//! a group of `#define`d constants (`SinewResult` and `SINEW_RESULT_*`), which
//! becomes an enum of that integer with those members; every other `#define`
//! becomes a `const` of `Native` (a number, or an expression of earlier integer
//! constants with `| & ^ ~ << >>`); structs become `[StructLayout(Sequential)]`
//! unsafe structs with the C field names, pointer fields staying pointers (so
//! a def with arrays, like `SinewClothMeshDef`, stays blittable, and a struct
//! may point to its own type, like `SinewColliderDef.children`); an opaque
//! struct becomes an empty struct used behind pointers. C# 7.3: no function
//! pointers, no `nint`.

use std::fmt::Write as _;
use std::path::Path;

const GENERATED: &str = "bindings/unity/Runtime/Native/Native.g.cs";

#[derive(Debug)]
struct Constant {
    name: String,
    value: String,
    doc: Vec<String>,
}

#[derive(Debug)]
struct Field {
    ty: String,
    name: String,
    doc: Vec<String>,
}

#[derive(Debug)]
struct Struct {
    name: String,
    fields: Vec<Field>,
    doc: Vec<String>,
}

#[derive(Debug)]
struct Function {
    ret: String,
    name: String,
    params: Vec<(String, String)>,
    doc: Vec<String>,
}

#[derive(Debug, Default)]
struct Header {
    constants: Vec<Constant>,
    aliases: Vec<(String, String, Vec<String>)>,
    opaque: Vec<(String, Vec<String>)>,
    structs: Vec<Struct>,
    functions: Vec<Function>,
}

/// Lines of a `/** ... */` block, without the comment marks.
fn doc_lines(block: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = block
        .iter()
        .map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("/**").unwrap_or(l);
            let l = l.strip_suffix("*/").unwrap_or(l);
            let l = l.trim_start();
            let l = l.strip_prefix('*').unwrap_or(l);
            l.strip_prefix(' ').unwrap_or(l).trim_end().to_string()
        })
        .collect();
    while out.first().is_some_and(|l| l.is_empty()) {
        out.remove(0);
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out
}

/// Splits a C declaration such as `const struct SinewVec3 *positions` into
/// (type with stars, name): ("SinewVec3*", "positions").
fn split_decl(decl: &str) -> (String, String) {
    let spaced = decl.replace('*', " * ");
    let mut tokens: Vec<&str> = spaced.split_whitespace().filter(|t| *t != "const" && *t != "struct").collect();
    let name = tokens.pop().unwrap_or_else(|| panic!("empty declaration `{decl}`")).to_string();
    let stars = tokens.iter().filter(|t| **t == "*").count();
    let base: Vec<&str> = tokens.into_iter().filter(|t| *t != "*").collect();
    assert!(base.len() == 1, "cannot read the C declaration `{decl}` (base type {base:?})");
    (format!("{}{}", base[0], "*".repeat(stars)), name)
}

fn parse_header(text: &str) -> Header {
    let mut header = Header::default();
    let lines: Vec<&str> = text.lines().collect();
    let mut doc: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim();
        i += 1;
        if trimmed.starts_with("/**") {
            let start = i - 1;
            while !lines[i - 1].trim_end().ends_with("*/") {
                i += 1;
            }
            doc = doc_lines(&lines[start..i]);
            continue;
        }
        if trimmed.starts_with("/*") {
            while !lines[i - 1].trim_end().ends_with("*/") {
                i += 1;
            }
            continue;
        }
        if trimmed.is_empty()
            || trimmed.starts_with("#include")
            || trimmed.starts_with("#if")
            || trimmed.starts_with("#endif")
            || trimmed.starts_with("#else")
            || trimmed.starts_with("extern \"C\"")
            || trimmed.starts_with('}') && trimmed.contains("extern \"C\"")
            || trimmed.starts_with("//")
        {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("#define ") {
            let mut parts = rest.splitn(2, char::is_whitespace);
            let name = parts.next().unwrap().to_string();
            if let Some(value) = parts.next() {
                header.constants.push(Constant {
                    name,
                    value: value.trim().to_string(),
                    doc: std::mem::take(&mut doc),
                });
            }
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("typedef ") {
            if rest.starts_with("enum") || rest.starts_with("union") {
                panic!(
                    "sinew.h declares `{trimmed}`: the C# generator handles no C enums or unions (the ABI uses integer typedefs)"
                );
            }
            if let Some(body) = rest.strip_prefix("struct ") {
                if let Some(name) = body.strip_suffix(" {") {
                    let mut fields = Vec::new();
                    let mut field_doc = Vec::new();
                    loop {
                        let l = lines[i].trim();
                        i += 1;
                        if l.starts_with("/**") {
                            let start = i - 1;
                            while !lines[i - 1].trim_end().ends_with("*/") {
                                i += 1;
                            }
                            field_doc = doc_lines(&lines[start..i]);
                        } else if l.starts_with('}') {
                            assert_eq!(l, format!("}} {name};"), "unexpected end of struct {name}");
                            break;
                        } else if !l.is_empty() {
                            // A function-pointer field may span several lines.
                            let mut field = l.to_string();
                            while field.matches('(').count() != field.matches(')').count() {
                                field.push(' ');
                                field.push_str(lines[i].trim());
                                i += 1;
                            }
                            let l = field.as_str();
                            let l = l.strip_suffix(';').unwrap_or_else(|| panic!("field `{l}` of {name}"));
                            let (ty, name) = if let Some(open) = l.find("(*") {
                                // A function pointer: an IntPtr in C# 7.3.
                                let close = l[open..].find(')').unwrap() + open;
                                ("IntPtr".to_string(), l[open + 2..close].trim().to_string())
                            } else {
                                split_decl(l)
                            };
                            fields.push(Field { ty, name, doc: std::mem::take(&mut field_doc) });
                        }
                    }
                    header.structs.push(Struct { name: name.to_string(), fields, doc: std::mem::take(&mut doc) });
                } else {
                    let name = body.split_whitespace().next().unwrap().to_string();
                    header.opaque.push((name, std::mem::take(&mut doc)));
                }
            } else {
                let (ty, name) = split_decl(rest.strip_suffix(';').expect("typedef ends with ;"));
                header.aliases.push((name, ty, std::mem::take(&mut doc)));
            }
            continue;
        }
        assert!(!line.starts_with(' '), "unexpected indented line in sinew.h: `{line}`");
        // A function declaration, possibly over several lines.
        let mut decl = trimmed.to_string();
        while !decl.ends_with(");") {
            decl.push(' ');
            decl.push_str(lines[i].trim());
            i += 1;
        }
        let open = decl.find('(').unwrap();
        let (ret, name) = split_decl(&decl[..open]);
        let inner = &decl[open + 1..decl.len() - 2];
        let params = if inner.trim() == "void" || inner.trim().is_empty() {
            Vec::new()
        } else {
            inner.split(',').map(|p| split_decl(p.trim())).collect()
        };
        header.functions.push(Function { ret, name, params, doc: std::mem::take(&mut doc) });
    }
    header
}

/// `SinewResult` -> `SINEW_RESULT_`.
fn constant_prefix(type_name: &str) -> String {
    let mut out = String::new();
    for (i, c) in type_name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out.push('_');
    out
}

fn primitive(c: &str) -> Option<&'static str> {
    Some(match c {
        "void" => "void",
        "char" | "uint8_t" => "byte",
        "int8_t" => "sbyte",
        "uint16_t" => "ushort",
        "int16_t" => "short",
        "uint32_t" => "uint",
        "int32_t" => "int",
        "uint64_t" => "ulong",
        "int64_t" => "long",
        "float" => "float",
        "double" => "double",
        "size_t" | "uintptr_t" => "UIntPtr",
        "intptr_t" => "IntPtr",
        "bool" | "_Bool" => panic!("a C bool in sinew.h: the ABI uses uint32_t (SinewBool) for C# marshalling"),
        _ => return None,
    })
}

const CSHARP_KEYWORDS: &[&str] = &[
    "abstract",
    "as",
    "base",
    "bool",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "checked",
    "class",
    "const",
    "continue",
    "decimal",
    "default",
    "delegate",
    "do",
    "double",
    "else",
    "enum",
    "event",
    "explicit",
    "extern",
    "false",
    "finally",
    "fixed",
    "float",
    "for",
    "foreach",
    "goto",
    "if",
    "implicit",
    "in",
    "int",
    "interface",
    "internal",
    "is",
    "lock",
    "long",
    "namespace",
    "new",
    "null",
    "object",
    "operator",
    "out",
    "override",
    "params",
    "private",
    "protected",
    "public",
    "readonly",
    "ref",
    "return",
    "sbyte",
    "sealed",
    "short",
    "sizeof",
    "stackalloc",
    "static",
    "string",
    "struct",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "uint",
    "ulong",
    "unchecked",
    "unsafe",
    "ushort",
    "using",
    "virtual",
    "void",
    "volatile",
    "while",
];

fn identifier(name: &str) -> String {
    if CSHARP_KEYWORDS.contains(&name) { format!("@{name}") } else { name.to_string() }
}

fn escape_xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn write_doc(out: &mut String, indent: &str, doc: &[String]) {
    if doc.is_empty() {
        return;
    }
    writeln!(out, "{indent}/// <summary>").unwrap();
    for l in doc {
        if l.is_empty() {
            writeln!(out, "{indent}///").unwrap();
        } else {
            writeln!(out, "{indent}/// {}", escape_xml(l)).unwrap();
        }
    }
    writeln!(out, "{indent}/// </summary>").unwrap();
}

/// C# type and literal of a `#define` number, or None for anything else.
fn try_literal(value: &str) -> Option<(&'static str, String)> {
    let v = value.trim_end_matches(['u', 'U']);
    if let Some(hex) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        let n = u64::from_str_radix(hex, 16).ok()?;
        return Some(if n <= u32::MAX as u64 { ("uint", format!("0x{hex}")) } else { ("ulong", format!("0x{hex}UL")) });
    }
    if let Ok(n) = v.parse::<i64>() {
        return Some(if n < 0 {
            ("int", n.to_string())
        } else if n <= u32::MAX as i64 {
            ("uint", n.to_string())
        } else {
            ("ulong", format!("{n}UL"))
        });
    }
    let f = v.trim_end_matches(['f', 'F']);
    f.parse::<f64>().is_ok().then(|| ("float", format!("{f}f")))
}

/// C# type and expression of a `#define` value that may combine earlier
/// integer constants (`((PIN_A | PIN_B) | PIN_C)`): C# const expressions take
/// the same operators, and constants of one type combine to that type.
fn constant_value(value: &str, earlier: &[(String, &'static str)]) -> (&'static str, String) {
    if let Some(literal) = try_literal(value) {
        return literal;
    }
    let mut ty: Option<&'static str> = None;
    let mut out = String::new();
    let mut chars = value.chars().peekable();
    let mut unify = |t: &'static str| {
        assert!(
            matches!(t, "uint" | "ulong" | "int") && ty.is_none_or(|u| u == t),
            "the constant expression `{value}` mixes types"
        );
        ty = Some(t);
    };
    while let Some(&c) = chars.peek() {
        if c.is_ascii_alphanumeric() || c == '_' {
            let mut token = String::new();
            while let Some(&c) = chars.peek().filter(|c| c.is_ascii_alphanumeric() || **c == '_') {
                token.push(c);
                chars.next();
            }
            if token.starts_with(|c: char| c.is_ascii_digit()) {
                let (t, literal) =
                    try_literal(&token).unwrap_or_else(|| panic!("cannot translate `{token}` in `{value}`"));
                unify(t);
                out.push_str(&literal);
            } else {
                let (_, t) = earlier.iter().find(|(n, _)| *n == token).unwrap_or_else(|| {
                    panic!("the constant expression `{value}` names `{token}`, not an earlier constant")
                });
                unify(t);
                out.push_str(&token);
            }
        } else if "|&^~<>() ".contains(c) {
            out.push(c);
            chars.next();
        } else {
            panic!("cannot translate the constant value `{value}`");
        }
    }
    (ty.unwrap_or_else(|| panic!("constant `{value}` has no operand")), out)
}

fn generate(header: &Header) -> String {
    // Integer typedefs that own a group of constants become enums.
    let enums: Vec<(&str, &str, String, &Vec<String>)> = header
        .aliases
        .iter()
        .filter_map(|(name, ty, doc)| {
            let prefix = constant_prefix(name);
            let ty = primitive(ty)?;
            header.constants.iter().any(|c| c.name.starts_with(&prefix)).then_some((name.as_str(), ty, prefix, doc))
        })
        .collect();
    let struct_names: Vec<&str> =
        header.structs.iter().map(|s| s.name.as_str()).chain(header.opaque.iter().map(|(n, _)| n.as_str())).collect();
    let cs_type = |c: &str| -> String {
        let base = c.trim_end_matches('*');
        let stars = &c[base.len()..];
        let mapped = if let Some(p) = primitive(base) {
            p.to_string()
        } else if enums.iter().any(|(n, ..)| *n == base) || struct_names.contains(&base) {
            base.to_string()
        } else if let Some((_, target, _)) = header.aliases.iter().find(|(n, ..)| n == base) {
            primitive(target).unwrap_or_else(|| panic!("typedef {base} of {target}")).to_string()
        } else if base == "IntPtr" {
            "IntPtr".to_string()
        } else {
            panic!("the C# generator does not know the C type `{c}`")
        };
        format!("{mapped}{stars}")
    };

    let mut out = String::new();
    out.push_str(
        "// <auto-generated>\n\
         // Generated from include/sinew.h by tests/csharp_native.rs; do not edit.\n\
         // Regenerate: SINEW_BLESS=1 cargo test --test csharp_native\n\
         // </auto-generated>\n\
         // C# 7.3, no UnityEngine: compiles with Mono's mcs and every Unity version.\n\
         using System;\n\
         using System.Runtime.InteropServices;\n\
         \n\
         namespace Sinew\n{\n",
    );
    for (name, ty, prefix, doc) in &enums {
        write_doc(&mut out, "    ", doc);
        writeln!(out, "    public enum {name} : {ty}\n    {{").unwrap();
        for c in header.constants.iter().filter(|c| c.name.starts_with(prefix.as_str())) {
            write_doc(&mut out, "        ", &c.doc);
            writeln!(
                out,
                "        {} = {},",
                c.name,
                try_literal(&c.value).unwrap_or_else(|| panic!("enum member {} = `{}`", c.name, c.value)).1
            )
            .unwrap();
        }
        out.push_str("    }\n\n");
    }
    for (name, doc) in &header.opaque {
        write_doc(&mut out, "    ", doc);
        writeln!(out, "    /// <remarks>Opaque: used only behind pointers.</remarks>").unwrap();
        writeln!(out, "    [StructLayout(LayoutKind.Sequential)]\n    public struct {name}\n    {{\n    }}\n").unwrap();
    }
    for s in &header.structs {
        write_doc(&mut out, "    ", &s.doc);
        writeln!(out, "    [StructLayout(LayoutKind.Sequential)]\n    public unsafe struct {}\n    {{", s.name)
            .unwrap();
        for f in &s.fields {
            write_doc(&mut out, "        ", &f.doc);
            if let Some(open) = f.name.find('[') {
                let len = f.name[open + 1..].trim_end_matches(']');
                let ty = cs_type(&f.ty);
                assert!(primitive(&f.ty).is_some(), "fixed array of non-primitive {} in {}", f.ty, s.name);
                writeln!(out, "        public fixed {ty} {}[{len}];", identifier(&f.name[..open])).unwrap();
            } else {
                writeln!(out, "        public {} {};", cs_type(&f.ty), identifier(&f.name)).unwrap();
            }
        }
        out.push_str("    }\n\n");
    }
    out.push_str(
        "    /// <summary>\n    \
         /// Every function of sinew.h under its C name, and its constants.\n    \
         /// </summary>\n    \
         public static unsafe partial class Native\n    {\n\
         #if (UNITY_IOS || UNITY_WEBGL) && !UNITY_EDITOR\n        \
         /// <summary>iOS and WebGL link sinew statically into the player.</summary>\n        \
         public const string LibraryName = \"__Internal\";\n\
         #else\n        \
         /// <summary>Resolves sinew.dll, libsinew.so or libsinew.dylib.</summary>\n        \
         public const string LibraryName = \"sinew\";\n\
         #endif\n\n",
    );
    let mut earlier: Vec<(String, &'static str)> = Vec::new();
    for c in &header.constants {
        if enums.iter().any(|(_, _, prefix, _)| c.name.starts_with(prefix.as_str())) {
            continue;
        }
        let (ty, literal) = constant_value(&c.value, &earlier);
        earlier.push((c.name.clone(), ty));
        write_doc(&mut out, "        ", &c.doc);
        writeln!(out, "        public const {ty} {} = {literal};\n", c.name).unwrap();
    }
    for f in &header.functions {
        write_doc(&mut out, "        ", &f.doc);
        let params: Vec<String> = f.params.iter().map(|(t, n)| format!("{} {}", cs_type(t), identifier(n))).collect();
        writeln!(
            out,
            "        [DllImport(LibraryName, EntryPoint = \"{0}\", CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]\n        \
             public static extern {1} {0}({2});\n",
            f.name,
            cs_type(&f.ret),
            params.join(", ")
        )
        .unwrap();
    }
    // Drop the blank line before the closing braces.
    while out.ends_with("\n\n") {
        out.pop();
    }
    out.push_str("    }\n}\n");
    out
}

#[test]
fn native_cs_is_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let header = std::fs::read_to_string(root.join("include/sinew.h")).expect("include/sinew.h");
    let generated = generate(&parse_header(&header));
    let path = root.join(GENERATED);
    if std::env::var_os("SINEW_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write Native.g.cs");
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == generated,
        "{GENERATED} is stale relative to include/sinew.h: run `SINEW_BLESS=1 cargo test --test csharp_native` and commit it"
    );
}

#[test]
fn every_header_function_and_struct_is_translated() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let header = parse_header(&std::fs::read_to_string(root.join("include/sinew.h")).unwrap());
    let cs = generate(&header);
    let text = std::fs::read_to_string(root.join("include/sinew.h")).unwrap();
    let declared = text.lines().filter(|l| !l.starts_with(' ') && l.contains("sinew_") && l.contains('(')).count();
    assert_eq!(header.functions.len(), declared, "the parser missed functions");
    for f in &header.functions {
        let import = format!(
            "EntryPoint = \"{0}\", CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]\n        public static extern ",
            f.name
        );
        assert!(cs.contains(&import) && cs.contains(&format!(" {}(", f.name)), "{} is not imported", f.name);
    }
    for name in [
        "SinewVec3",
        "SinewQuat",
        "SinewTransform",
        "SinewBodyId",
        "SinewColliderId",
        "SinewJointId",
        "SinewWorldDef",
        "SinewClothGridDef",
        "SinewClothMeshDef",
        "SinewMaterial",
        "SinewColliderDef",
        "SinewCollisionStick",
        "SinewContact",
        "SinewRayHit",
        "SinewColliderHit",
        "SinewParticleHit",
    ] {
        assert!(cs.contains(&format!("public unsafe struct {name}\n")), "{name} missing");
    }
    // The mechanical mapping, on functions that exercise each rule.
    for expected in [
        "public enum SinewResult : int",
        "SINEW_RESULT_INCOMPATIBLE = 10,",
        "public struct SinewWorld\n    {\n    }",
        "public static extern SinewResult sinew_world_create(SinewWorldDef* def, SinewWorld** out_world);",
        "public static extern UIntPtr sinew_last_error_message(byte* buffer, UIntPtr capacity);",
        "public static extern byte* sinew_result_name(SinewResult result);",
        "public static extern uint sinew_body_is_valid(SinewWorld* world, SinewBodyId body);",
        "public static extern SinewResult sinew_world_state_hash(SinewWorld* world, ulong* out_hash);",
        "SinewVec3* @out, uint capacity, uint* out_count);",
        "public const uint SINEW_ABI_VERSION = ",
        // Pointer fields stay pointers: the struct is blittable, passed by address.
        "public SinewVec3* vertices;",
        "public uint* indices;",
        "public float* inv_masses;",
        "public byte* pin_mask;",
        "public static extern SinewResult sinew_cloth_write_vertices(SinewWorld* world, SinewBodyId body, byte* positions, UIntPtr position_stride, byte* normals, UIntPtr normal_stride, uint capacity, uint* out_count);",
        "public static extern SinewResult sinew_joint_create(SinewWorld* world, SinewBodyId body_a, uint particle_a, SinewBodyId body_b, uint particle_b, float rest_length, float compliance, SinewJointId* out_joint);",
        "public const uint SINEW_TETHER_GEODESIC = 2;",
        // A struct holding a pointer to its own type (a compound's parts) and
        // the collider def's arrays: pointers in an unsafe struct.
        "public SinewColliderDef* children;",
        "public SinewVec3* points;",
        "public float* heights;",
        "public SinewMaterial material;",
        "public const uint SINEW_LAYER_ALL = 4294967295;",
        "public const uint SINEW_SHAPE_COMPOUND = 7;",
        "public static extern SinewResult sinew_collider_create(SinewWorld* world, SinewColliderDef* def, SinewColliderId* out_collider);",
        "public static extern SinewResult sinew_world_raycast(SinewWorld* world, SinewVec3 origin, SinewVec3 direction, float max_distance, uint mask, SinewRayHit* out_hit);",
        "public static extern SinewResult sinew_body_apply_hit_impulse(SinewWorld* world, SinewRayHit* hit, SinewVec3 impulse);",
        "[DllImport(LibraryName, EntryPoint = \"sinew_world_step\", CallingConvention = CallingConvention.Cdecl",
    ] {
        assert!(cs.contains(expected), "Native.g.cs lacks `{expected}`");
    }
    assert!(!cs.contains(" bool "), "no C# bool in the P/Invoke layer");
}

/// The cloth functions of the normative C API, as cbindgen will print them: adding
/// them to the header must need no change here, only a regeneration.
#[test]
fn the_coming_cloth_and_ragdoll_declarations_translate() {
    let excerpt = r#"
typedef int32_t SinewResult;
typedef struct SinewWorld SinewWorld;
typedef struct SinewVec3 {
    float x;
    float y;
    float z;
} SinewVec3;
typedef struct SinewQuat {
    float x;
    float y;
    float z;
    float w;
} SinewQuat;
typedef struct SinewTransform {
    struct SinewVec3 position;
    struct SinewQuat rotation;
} SinewTransform;
typedef struct SinewBodyId {
    uint32_t index1;
    uint32_t generation;
} SinewBodyId;
/**
 * Pins the top-left vertex.
 */
#define SINEW_PIN_TOP_LEFT 1
#define SINEW_PIN_TOP_RIGHT 0x2u
#define SINEW_PIN_ALL ((SINEW_PIN_TOP_LEFT | SINEW_PIN_TOP_RIGHT) | 4)
#define SINEW_RESULT_OK 0
typedef struct SinewMeshView {
    const struct SinewVec3 *vertices;
    const uint8_t *pin_mask;
    uint32_t vertex_count;
} SinewMeshView;
typedef struct SinewClothGridDef {
    /**
     * Grid placement.
     */
    struct SinewTransform transform;
    uint32_t columns;
    uint32_t rows;
    float spacing;
    float mass;
    float stretch_compliance;
    float shear_compliance;
    float bend_compliance;
    uint32_t pin_flags;
    void (*enqueue_task)(void *task, void *context);
    uint32_t internal_cookie;
} SinewClothGridDef;
struct SinewClothGridDef sinew_default_cloth_grid_def(void);
SinewResult sinew_cloth_create_grid(struct SinewWorld *world,
                                    const struct SinewClothGridDef *def,
                                    struct SinewBodyId *out_body);
SinewResult sinew_ragdoll_create_humanoid(struct SinewWorld *world,
                                          struct SinewTransform root,
                                          float height,
                                          struct SinewBodyId *out_body);
SinewResult sinew_ragdoll_set_motor_targets(struct SinewWorld *world,
                                            struct SinewBodyId ragdoll,
                                            const struct SinewTransform *bones,
                                            uint32_t count);
"#;
    let cs = generate(&parse_header(excerpt));
    for expected in [
        "public static extern SinewClothGridDef sinew_default_cloth_grid_def();",
        "public static extern SinewResult sinew_cloth_create_grid(SinewWorld* world, SinewClothGridDef* def, SinewBodyId* out_body);",
        "public static extern SinewResult sinew_ragdoll_create_humanoid(SinewWorld* world, SinewTransform root, float height, SinewBodyId* out_body);",
        "SinewTransform* bones, uint count);",
        "public SinewTransform transform;",
        "public IntPtr enqueue_task;",
        "public const uint SINEW_PIN_TOP_LEFT = 1;",
        "/// Pins the top-left vertex.",
        "public const uint SINEW_PIN_TOP_RIGHT = 0x2;",
        "public const uint SINEW_PIN_ALL = ((SINEW_PIN_TOP_LEFT | SINEW_PIN_TOP_RIGHT) | 4);",
        "public SinewVec3* vertices;",
        "public byte* pin_mask;",
    ] {
        assert!(cs.contains(expected), "translation lacks `{expected}`:\n{cs}");
    }
}
