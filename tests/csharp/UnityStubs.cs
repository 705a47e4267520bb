// Stand-ins for the parts of the UnityEngine API that Runtime/Components/SinewCloth.cs,
// SinewRagdoll.cs and SinewWorldBehaviour.cs use, with Unity 2021.3's signatures (as documented;
// written by hand, bodies empty). tests/csharp_binding.rs compiles those components
// against them: that catches C# errors and misuse of Sinew.World, not mistakes about
// Unity's API itself, which only a Unity editor can check.
using System;
using System.Collections.Generic;
namespace UnityEngine
{
    public class Object
    {
        public string name { get; set; }
        public HideFlags hideFlags { get; set; }
        public static T Instantiate<T>(T original) where T : Object { return original; }
        public static void Destroy(Object o) { }
        public static T FindObjectOfType<T>() where T : Object { return null; }
        public static bool operator ==(Object a, Object b) { return ReferenceEquals(a, b); }
        public static bool operator !=(Object a, Object b) { return !ReferenceEquals(a, b); }
        public override bool Equals(object o) { return ReferenceEquals(this, o); }
        public override int GetHashCode() { return 0; }
    }
    public enum HideFlags { None = 0, DontSave = 52 }
    public class Component : Object
    {
        public Transform transform { get { return null; } }
        public GameObject gameObject { get { return null; } }
        public T GetComponent<T>() { return default(T); }
    }
    public class Behaviour : Component { public bool enabled { get; set; } }
    public class MonoBehaviour : Behaviour { }
    public class GameObject : Object
    {
        public GameObject(string name) { }
        public int layer { get; set; }
        public T AddComponent<T>() where T : Component { return null; }
    }
    public class Transform : Component
    {
        public Vector3 position { get; set; }
        public Quaternion rotation { get; set; }
        public Vector3 lossyScale { get { return default(Vector3); } }
        public bool hasChanged { get; set; }
        public void SetPositionAndRotation(Vector3 position, Quaternion rotation) { }
    }
    public class Animator : Behaviour
    {
        public bool isHuman { get { return true; } }
        public Transform GetBoneTransform(HumanBodyBones humanBoneId) { return null; }
    }
    // The values of Unity's enum (2021.3), up to the bones SinewRagdoll uses and a few beyond.
    public enum HumanBodyBones
    {
        Hips = 0, LeftUpperLeg = 1, RightUpperLeg = 2, LeftLowerLeg = 3, RightLowerLeg = 4, LeftFoot = 5, RightFoot = 6,
        Spine = 7, Chest = 8, Neck = 9, Head = 10, LeftShoulder = 11, RightShoulder = 12, LeftUpperArm = 13,
        RightUpperArm = 14, LeftLowerArm = 15, RightLowerArm = 16, LeftHand = 17, RightHand = 18, LeftToes = 19,
        RightToes = 20, UpperChest = 54, LastBone = 55
    }
    public class Renderer : Component
    {
        public bool enabled { get; set; }
        public Material[] sharedMaterials { get; set; }
        public Rendering.ShadowCastingMode shadowCastingMode { get; set; }
        public bool receiveShadows { get; set; }
    }
    public class Material : Object { }
    public class MeshRenderer : Renderer { }
    public class SkinnedMeshRenderer : Renderer
    {
        public Mesh sharedMesh { get; set; }
        public void BakeMesh(Mesh mesh) { }
        public void BakeMesh(Mesh mesh, bool useScale) { }
    }
    public class MeshFilter : Component { public Mesh sharedMesh { get; set; } }
    public enum MeshTopology { Triangles = 0 }
    public sealed class Mesh : Object
    {
        public bool isReadable { get { return true; } }
        public Vector3[] vertices { get; set; }
        public Vector2[] uv { get; set; }
        public int[] triangles { get; set; }
        public Color[] colors { get; set; }
        public Bounds bounds { get; set; }
        public Rendering.IndexFormat indexFormat { get; set; }
        public int vertexCount { get { return 0; } }
        public void GetVertices(List<Vector3> vertices) { }
        public void GetNormals(List<Vector3> normals) { }
        public void MarkDynamic() { }
        public void SetIndices(int[] indices, MeshTopology topology, int submesh) { }
        public void SetVertices<T>(Unity.Collections.NativeArray<T> v, int start, int length, Rendering.MeshUpdateFlags flags = 0) where T : struct { }
        public void SetNormals<T>(Unity.Collections.NativeArray<T> v, int start, int length, Rendering.MeshUpdateFlags flags = 0) where T : struct { }
    }
    public struct Vector2 { public float x, y; public Vector2(float x, float y) { this.x = x; this.y = y; } }
    public struct Vector3
    {
        public float x, y, z;
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        public static Vector3 zero { get { return default(Vector3); } }
        public static Vector3 up { get { return new Vector3(0f, 1f, 0f); } }
        public static Vector3 Scale(Vector3 a, Vector3 b) { return new Vector3(a.x * b.x, a.y * b.y, a.z * b.z); }
        public static Vector3 operator +(Vector3 a, Vector3 b) { return a; }
        public static Vector3 operator -(Vector3 a, Vector3 b) { return a; }
        public static Vector3 operator *(Vector3 a, float b) { return a; }
        public static Vector3 operator -(Vector3 a) { return a; }
        public static bool operator ==(Vector3 a, Vector3 b) { return a.x == b.x; }
        public static bool operator !=(Vector3 a, Vector3 b) { return a.x != b.x; }
        public override bool Equals(object o) { return false; }
        public override int GetHashCode() { return 0; }
    }
    public struct Quaternion
    {
        public float x, y, z, w;
        public Quaternion(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }
        public static Vector3 operator *(Quaternion q, Vector3 v) { return v; }
    }
    public struct Color { public float r, g, b, a; }
    public struct Bounds { public Bounds(Vector3 center, Vector3 size) { } }
    public static class Debug
    {
        public static void LogError(object m, Object context) { }
        public static void LogWarning(object m, Object context) { }
    }
    public static class Mathf
    {
        public static float Abs(float f) { return Math.Abs(f); }
        public static float Clamp01(float f) { return f < 0f ? 0f : f > 1f ? 1f : f; }
        public static float Max(float a, float b) { return Math.Max(a, b); }
    }
    public static class Application { public static bool isPlaying { get { return true; } } }
    public static class Time { public static float fixedDeltaTime { get { return 0.02f; } } }
    public sealed class RequireComponent : Attribute { public RequireComponent(Type a, Type b) { } }
    public sealed class DefaultExecutionOrder : Attribute { public DefaultExecutionOrder(int order) { } }
    public sealed class DisallowMultipleComponent : Attribute { }
    public sealed class TooltipAttribute : Attribute { public TooltipAttribute(string t) { } }
    public sealed class HeaderAttribute : Attribute { public HeaderAttribute(string t) { } }
    public sealed class MinAttribute : Attribute { public MinAttribute(float m) { } }
    public sealed class RangeAttribute : Attribute { public RangeAttribute(float a, float b) { } }
}
namespace UnityEngine.Rendering
{
    [Flags] public enum MeshUpdateFlags { Default = 0, DontValidateIndices = 1, DontResetBoneBounds = 2, DontNotifyMeshUsers = 4, DontRecalculateBounds = 8 }
    public enum IndexFormat { UInt16 = 0, UInt32 = 1 }
    public enum ShadowCastingMode { Off, On }
}
namespace Unity.Collections
{
    public enum Allocator { Persistent = 4 }
    public struct NativeArray<T> : IDisposable where T : struct
    {
        public NativeArray(int length, Allocator allocator) { Length = length; IsCreated = true; }
        public int Length { get; private set; }
        public bool IsCreated { get; private set; }
        public void Dispose() { }
    }
}
namespace Unity.Collections.LowLevel.Unsafe
{
    public static unsafe class NativeArrayUnsafeUtility
    {
        public static void* GetUnsafeBufferPointerWithoutChecks<T>(NativeArray<T> a) where T : struct { return null; }
    }
}
