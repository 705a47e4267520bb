// A cloth simulated by sinew and drawn through this GameObject's renderer.
//
// Source.Mesh (default): the MeshFilter's mesh (Read/Write enabled) becomes
// the cloth through sinew_cloth_create: its vertices (scaled by this
// Transform's lossyScale, placed by its position and rotation), its triangles
// (all submeshes), vertices closer than weldTolerance welded into one
// particle (UV seams, hard edges), and pins from pinnedVertices and/or a
// vertex colour channel. Source.Grid: a columns x rows grid in this
// Transform's local XY plane (+X columns, -Y rows) through
// sinew_cloth_create_grid.
//
// Every frame sinew_cloth_write_vertices writes each engine vertex's position
// and normal (two 12-byte streams) straight into NativeArray<Vector3>s that
// become the mesh's vertices and normals, and sinew_body_get_bounds gives the
// culling bounds: no per-vertex work in C#. sinew works in world space, so the
// simulated mesh is drawn by a renderer-only GameObject at the world origin
// ("<name> (sinew)", not saved) with this renderer's materials; this
// GameObject's own MeshRenderer is switched off meanwhile, and its Transform
// stays free to move: pinned vertices follow it (followTransform), and `pins`
// tie vertices to other Transforms (hands, hooks).
//
// Triangle winding: Unity's front faces and sinew's normals agree (both are
// cross(b - a, c - a) for a triangle a, b, c), so Mesh.triangles pass as they
// are and the grid's render triangles are sinew's own. A mirrored (negative)
// scale flips them. Tangents are not updated.
//
// Not compiled or run here (needs Unity 2021.3+); written against World.cs,
// which is compiled and run under Mono by the tests.
using System.Collections.Generic;
using Unity.Collections;
using Unity.Collections.LowLevel.Unsafe;
using UnityEngine;
using UnityEngine.Rendering;

namespace Sinew.Unity
{
    [DefaultExecutionOrder(50)] // before SinewWorldBehaviour (100) steps the world
    [RequireComponent(typeof(MeshFilter), typeof(MeshRenderer))]
    public sealed unsafe class SinewCloth : MonoBehaviour
    {
        public enum Source { Mesh, Grid }

        public enum ColorChannel { None, Red, Green, Blue, Alpha }

        public enum Tethers { None = 0, Euclidean = 1, Geodesic = 2 }

        [System.Serializable]
        public struct Pin
        {
            [Tooltip("Vertex index of the mesh (grid: row * columns + column)")]
            public int vertex;
            public Transform target;
        }

        public SinewWorldBehaviour world;
        public Source source = Source.Mesh;

        [Header("Mesh")]
        [Tooltip("Vertices closer than this (metres) become one particle; 0 welds equal positions only")]
        [Min(0f)] public float weldTolerance = 1e-5f;
        [Tooltip("Mesh vertex indices pinned in place (they follow this Transform)")]
        public List<int> pinnedVertices = new List<int>();
        [Tooltip("Also pin every vertex whose colour channel is at least pinColorThreshold")]
        public ColorChannel pinColorChannel = ColorChannel.None;
        [Range(0f, 1f)] public float pinColorThreshold = 0.5f;

        [Header("Grid")]
        [Min(2)] public int columns = 16;
        [Min(2)] public int rows = 16;
        [Min(0.001f)] public float spacing = 0.1f;
        public bool pinTopEdge = true;

        [Header("Material")]
        [Min(0.001f)] public float mass = 1f;
        [Min(0f)] public float stretchCompliance = 0f;
        [Tooltip("Grid only: the quads' diagonals")]
        [Min(0f)] public float shearCompliance = 1e-6f;
        [Min(0f)] public float bendCompliance = 1e-3f;
        public Tethers tethers = Tethers.Euclidean;
        [Min(1f)] public float tetherScale = 1f;
        [Min(0f)] public float thickness = 0.01f;

        [Header("Air and collision")]
        [Tooltip("This cloth's own wind (m/s), added to the world's")]
        public Vector3 wind = Vector3.zero;
        [Min(0f)] public float drag = 1f;
        [Min(0f)] public float lift = 0.3f;
        public bool selfCollision = false;
        public bool clothCollision = false;

        [Header("Attachments")]
        [Tooltip("Pinned vertices move with this Transform (and its parents)")]
        public bool followTransform = true;
        public List<Pin> pins = new List<Pin>();

        SinewBodyId _body;
        bool _created;
        Mesh _mesh;
        GameObject _renderObject;
        MeshRenderer _sourceRenderer;
        NativeArray<Vector3> _positions;
        NativeArray<Vector3> _normals;
        uint[] _vertexToParticle;
        int[] _pinnedVertices = new int[0];
        uint[] _pinnedParticles = new uint[0];
        Vector3[] _pinnedRest = new Vector3[0]; // of _pinnedVertices, in this Transform's frame, scale applied
        List<SinewTarget> _targets = new List<SinewTarget>();
        SinewTarget[] _targetArray = new SinewTarget[0];

        /// <summary>The body in the world (valid once Start has run).</summary>
        public SinewBodyId Body
        {
            get { return _body; }
        }

        void Start()
        {
            world = SinewWorldBehaviour.Find(world);
            if (world == null || world.World == null)
            {
                Debug.LogError("SinewCloth: no SinewWorldBehaviour in the scene", this);
                enabled = false;
                return;
            }
            MeshFilter filter = GetComponent<MeshFilter>();
            _sourceRenderer = GetComponent<MeshRenderer>();
            if (source == Source.Mesh)
            {
                Mesh shared = filter.sharedMesh;
                if (shared == null || !shared.isReadable)
                {
                    Debug.LogError("SinewCloth: the MeshFilter needs a mesh with Read/Write enabled", this);
                    enabled = false;
                    return;
                }
                CreateFromMesh(shared);
            }
            else
            {
                CreateGrid();
            }
            _created = true;
            ApplySettings();

            // The particle of each engine vertex, for pins given as vertices.
            int vertexCount = world.World.ClothVertexCount(_body);
            _vertexToParticle = new uint[vertexCount];
            world.World.ReadVertexMap(_body, _vertexToParticle);
            _pinnedParticles = new uint[_pinnedVertices.Length];
            for (int i = 0; i < _pinnedVertices.Length; i++) _pinnedParticles[i] = _vertexToParticle[_pinnedVertices[i]];

            _positions = new NativeArray<Vector3>(vertexCount, Allocator.Persistent);
            _normals = new NativeArray<Vector3>(vertexCount, Allocator.Persistent);
            _mesh.MarkDynamic();

            _renderObject = new GameObject(name + " (sinew)");
            _renderObject.hideFlags = HideFlags.DontSave;
            _renderObject.layer = gameObject.layer;
            _renderObject.AddComponent<MeshFilter>().sharedMesh = _mesh;
            MeshRenderer renderer = _renderObject.AddComponent<MeshRenderer>();
            renderer.sharedMaterials = _sourceRenderer.sharedMaterials;
            renderer.shadowCastingMode = _sourceRenderer.shadowCastingMode;
            renderer.receiveShadows = _sourceRenderer.receiveShadows;
            _sourceRenderer.enabled = false;
            transform.hasChanged = false;
            WriteBack();
        }

        void CreateFromMesh(Mesh shared)
        {
            Vector3[] vertices = shared.vertices;
            int[] triangles = shared.triangles; // every submesh, in order
            Vector3 scale = transform.lossyScale;
            for (int i = 0; i < vertices.Length; i++) vertices[i] = Vector3.Scale(vertices[i], scale);

            byte[] pinMask = new byte[vertices.Length];
            bool anyPinned = false;
            foreach (int v in pinnedVertices)
            {
                if (v >= 0 && v < pinMask.Length)
                {
                    pinMask[v] = 1;
                    anyPinned = true;
                }
                else
                {
                    Debug.LogWarning("SinewCloth: pinned vertex " + v + " is not a vertex of the mesh", this);
                }
            }
            if (pinColorChannel != ColorChannel.None)
            {
                Color[] colors = shared.colors;
                if (colors.Length != vertices.Length)
                {
                    Debug.LogWarning("SinewCloth: the mesh has no vertex colours to pin from", this);
                }
                else
                {
                    for (int i = 0; i < colors.Length; i++)
                    {
                        if (Channel(colors[i]) >= pinColorThreshold)
                        {
                            pinMask[i] = 1;
                            anyPinned = true;
                        }
                    }
                }
            }

            SinewClothMeshDef def = World.DefaultClothMeshDef();
            def.transform = SinewWorldBehaviour.ToSinew(transform.position, transform.rotation);
            def.weld_tolerance = weldTolerance;
            def.mass = mass;
            def.stretch_compliance = stretchCompliance;
            def.bend_compliance = bendCompliance;
            def.tether_mode = (uint)tethers;
            def.tether_scale = tetherScale;
            def.thickness = thickness;
            def.drag = drag;
            def.lift = lift;
            def.self_collision = selfCollision ? 1u : 0u;
            def.cloth_collision = clothCollision ? 1u : 0u;
            // Vector3 is SinewVec3 (three floats); int indices have uint32's bits.
            fixed (Vector3* v = vertices)
            fixed (int* t = triangles)
            fixed (byte* m = pinMask)
            {
                def.vertices = (SinewVec3*)v;
                def.vertex_count = (uint)vertices.Length;
                def.indices = (uint*)t;
                def.triangle_count = (uint)(triangles.Length / 3);
                def.pin_mask = anyPinned ? m : null;
                _body = world.World.CreateCloth(def);
            }

            // The pinned vertices and their rest positions in this Transform's frame.
            var pinned = new List<int>();
            var rest = new List<Vector3>();
            for (int i = 0; i < pinMask.Length; i++)
            {
                if (pinMask[i] == 0) continue;
                pinned.Add(i);
                rest.Add(vertices[i]);
            }
            _pinnedVertices = pinned.ToArray();
            _pinnedRest = rest.ToArray();

            // Draw a copy of the mesh: its UVs, colours and submeshes stay.
            _mesh = Instantiate(shared);
            _mesh.name = shared.name + " (sinew)";
        }

        void CreateGrid()
        {
            SinewClothGridDef def = World.DefaultClothGridDef();
            def.transform = SinewWorldBehaviour.ToSinew(transform.position, transform.rotation);
            def.columns = (uint)columns;
            def.rows = (uint)rows;
            def.spacing = spacing;
            def.mass = mass;
            def.stretch_compliance = stretchCompliance;
            def.shear_compliance = shearCompliance;
            def.bend_compliance = bendCompliance;
            def.pin_flags = pinTopEdge ? Native.SINEW_PIN_TOP_EDGE : 0u;
            def.tether_mode = (uint)tethers;
            def.tether_scale = tetherScale;
            def.thickness = thickness;
            def.drag = drag;
            def.lift = lift;
            def.self_collision = selfCollision ? 1u : 0u;
            def.cloth_collision = clothCollision ? 1u : 0u;
            _body = world.World.CreateClothGrid(def);

            int count = columns * rows;
            var pinned = new List<int>();
            if (pinTopEdge)
            {
                for (int c = 0; c < columns; c++) pinned.Add(c);
            }
            foreach (int v in pinnedVertices)
            {
                if (v < 0 || v >= count)
                {
                    Debug.LogWarning("SinewCloth: pinned vertex " + v + " is not in the grid", this);
                }
                else if (!pinned.Contains(v))
                {
                    world.World.SetInvMasses(_body, v, new[] { 0f });
                    pinned.Add(v);
                }
            }
            _pinnedVertices = pinned.ToArray();
            _pinnedRest = new Vector3[pinned.Count];
            for (int i = 0; i < pinned.Count; i++)
            {
                _pinnedRest[i] = new Vector3((pinned[i] % columns) * spacing, -(pinned[i] / columns) * spacing, 0f);
            }

            // The render mesh: sinew's triangles (diagonals alternating), UVs over the grid.
            var uv = new Vector2[count];
            for (int i = 0; i < count; i++)
            {
                uv[i] = new Vector2((i % columns) / (float)(columns - 1), 1f - (i / columns) / (float)(rows - 1));
            }
            var indices = new int[(columns - 1) * (rows - 1) * 6];
            int k = 0;
            for (int r = 0; r + 1 < rows; r++)
            {
                for (int c = 0; c + 1 < columns; c++)
                {
                    int a = r * columns + c, b = a + 1, cc = a + columns, d = cc + 1;
                    if ((r + c) % 2 == 0)
                    {
                        indices[k++] = a; indices[k++] = cc; indices[k++] = d;
                        indices[k++] = a; indices[k++] = d; indices[k++] = b;
                    }
                    else
                    {
                        indices[k++] = a; indices[k++] = cc; indices[k++] = b;
                        indices[k++] = b; indices[k++] = cc; indices[k++] = d;
                    }
                }
            }
            _mesh = new Mesh { name = "sinew cloth grid" };
            if (count > 65535) _mesh.indexFormat = IndexFormat.UInt32;
            _mesh.vertices = new Vector3[count];
            _mesh.uv = uv;
            _mesh.SetIndices(indices, MeshTopology.Triangles, 0);
        }

        float Channel(Color c)
        {
            switch (pinColorChannel)
            {
                case ColorChannel.Red: return c.r;
                case ColorChannel.Green: return c.g;
                case ColorChannel.Blue: return c.b;
                case ColorChannel.Alpha: return c.a;
                default: return float.NegativeInfinity;
            }
        }

        /// <summary>Sends wind, drag, lift and the collision flags to sinew (also on edits in play mode).</summary>
        public void ApplySettings()
        {
            if (!_created || world == null || world.World == null) return;
            world.World.SetClothWind(_body, SinewWorldBehaviour.ToSinew(wind));
            world.World.SetClothAerodynamics(_body, drag, lift);
            world.World.SetClothCollision(_body, selfCollision, clothCollision);
        }

        void OnValidate()
        {
            if (Application.isPlaying) ApplySettings();
        }

        void FixedUpdate()
        {
            if (!_created || world == null || world.World == null) return;
            _targets.Clear();
            // Pinned vertices ride on this Transform; only when it moved, so a
            // cloth at rest can fall asleep.
            if (followTransform && transform.hasChanged && _pinnedRest.Length > 0)
            {
                transform.hasChanged = false;
                Vector3 position = transform.position;
                Quaternion rotation = transform.rotation;
                for (int i = 0; i < _pinnedRest.Length; i++)
                {
                    SinewTarget t;
                    t.particle = _pinnedParticles[i];
                    t.position = SinewWorldBehaviour.ToSinew(position + rotation * _pinnedRest[i]);
                    t.compliance = 0f;
                    t.max_force = 0f;
                    _targets.Add(t);
                }
            }
            for (int i = 0; i < pins.Count; i++)
            {
                Pin pin = pins[i];
                if (pin.target == null || pin.vertex < 0 || pin.vertex >= _vertexToParticle.Length) continue;
                SinewTarget t;
                t.particle = _vertexToParticle[pin.vertex];
                t.position = SinewWorldBehaviour.ToSinew(pin.target.position);
                t.compliance = 0f;
                t.max_force = 0f;
                _targets.Add(t);
            }
            if (_targets.Count == 0) return;
            if (_targetArray.Length != _targets.Count) _targetArray = new SinewTarget[_targets.Count];
            _targets.CopyTo(_targetArray);
            world.World.SetTargets(_body, _targetArray);
        }

        void LateUpdate()
        {
            if (_created && world != null && world.World != null && !world.World.IsDisposed) WriteBack();
        }

        void WriteBack()
        {
            // Vector3 is three floats: sinew writes each engine vertex's position
            // and normal into the two arrays (12-byte strides).
            void* positions = NativeArrayUnsafeUtility.GetUnsafeBufferPointerWithoutChecks(_positions);
            void* normals = NativeArrayUnsafeUtility.GetUnsafeBufferPointerWithoutChecks(_normals);
            int count = world.World.WriteVertices(_body, positions, 12, normals, 12, _positions.Length);
            _mesh.SetVertices(_positions, 0, count, MeshUpdateFlags.DontRecalculateBounds);
            _mesh.SetNormals(_normals, 0, count, MeshUpdateFlags.DontRecalculateBounds);
            SinewVec3 lo, hi;
            world.World.GetBounds(_body, out lo, out hi);
            Vector3 min = SinewWorldBehaviour.ToUnity(lo), max = SinewWorldBehaviour.ToUnity(hi);
            _mesh.bounds = new Bounds((min + max) * 0.5f, max - min);
        }

        void OnDestroy()
        {
            if (_created && world != null && world.World != null && !world.World.IsDisposed && world.World.IsValid(_body))
                world.World.DestroyBody(_body);
            _created = false;
            if (_positions.IsCreated) _positions.Dispose();
            if (_normals.IsCreated) _normals.Dispose();
            if (_renderObject != null) Destroy(_renderObject);
            if (_mesh != null) Destroy(_mesh);
            if (_sourceRenderer != null) _sourceRenderer.enabled = true;
        }
    }
}
