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
// Skinned pose (optional, Source.Mesh): a character's cape or skirt. Set
// skinSource to a SkinnedMeshRenderer whose mesh has this mesh's vertices in
// the same order (typically the same mesh, skinned to the character's bones).
// Every FixedUpdate its BakeMesh snapshot becomes the cloth's skin
// (sinew_cloth_set_skin): each vertex may move at most its max distance from
// its skinned position and, with useBackstop, no further than its backstop
// behind the skinned surface (sinew_cloth_set_max_distances). Both come from
// maxDistance / backstop times a vertex colour channel of this mesh (or are
// uniform without a channel): paint 0 where the cloth must follow the skin
// rigidly. The baked normals are taken as "out of the body" (invertSkinNormals
// flips them). The skin is the pose of the last animation update, so it lags
// the animation by up to one step. The SkinnedMeshRenderer's Transform should
// have unit scale: baked vertices are placed by its position and rotation
// only (a warning is logged otherwise).
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

        public enum Bending { Distance, Dihedral }

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
        [Tooltip("Distance: a stick across each interior edge. Dihedral: the angle across each interior edge (bends only, folds sharper; bendCompliance is then in rad/(N m)). Read at creation")]
        public Bending bending = Bending.Distance;
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

        [Header("Skinned pose (Source.Mesh)")]
        [Tooltip("A SkinnedMeshRenderer with this mesh's vertices in the same order; none = no skin")]
        public SkinnedMeshRenderer skinSource;
        [Tooltip("Metres a vertex may move from its skinned position (times maxDistanceChannel when set)")]
        [Min(0f)] public float maxDistance = 0.1f;
        public ColorChannel maxDistanceChannel = ColorChannel.None;
        [Tooltip("Limit how far vertices may go behind the skinned surface")]
        public bool useBackstop = false;
        [Tooltip("Metres a vertex may go behind the skinned surface (times backstopChannel when set); 0 = never")]
        [Min(0f)] public float backstop = 0f;
        public ColorChannel backstopChannel = ColorChannel.None;
        [Tooltip("The baked normals point into the body: flip them")]
        public bool invertSkinNormals = false;

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
        bool _skinning;
        Mesh _bakedMesh;
        Color[] _skinColors = new Color[0]; // this mesh's colours, for max distances and backstops
        List<Vector3> _bakedList = new List<Vector3>();
        Vector3[] _skinPositions = new Vector3[0];
        Vector3[] _skinNormals = new Vector3[0];
        float[] _maxDistances = new float[0];
        float[] _backstops = new float[0];

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

            // The particle of each engine vertex, for pins given as vertices.
            int vertexCount = world.World.ClothVertexCount(_body);
            _vertexToParticle = new uint[vertexCount];
            world.World.ReadVertexMap(_body, _vertexToParticle);
            _pinnedParticles = new uint[_pinnedVertices.Length];
            for (int i = 0; i < _pinnedVertices.Length; i++) _pinnedParticles[i] = _vertexToParticle[_pinnedVertices[i]];
            if (skinSource != null) StartSkin(vertexCount, source == Source.Mesh ? filter.sharedMesh : null);
            ApplySettings();

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
            def.bend_mode = BendMode();
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
            def.bend_mode = BendMode();
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

        uint BendMode()
        {
            return bending == Bending.Dihedral ? Native.SINEW_BEND_DIHEDRAL : Native.SINEW_BEND_DISTANCE;
        }

        // Checks the skinned mesh against the cloth and sends the first skin
        // (sinew needs one before max distances); skinning stays off on a mismatch.
        void StartSkin(int vertexCount, Mesh painted)
        {
            Mesh skinned = skinSource.sharedMesh;
            if (skinned == null || skinned.vertexCount != vertexCount)
            {
                Debug.LogError("SinewCloth: skinSource's mesh must have this cloth's " + vertexCount +
                               " vertices in the same order; skinning is off", this);
                return;
            }
            Vector3 scale = skinSource.transform.lossyScale;
            if (Mathf.Abs(scale.x - 1f) > 1e-3f || Mathf.Abs(scale.y - 1f) > 1e-3f || Mathf.Abs(scale.z - 1f) > 1e-3f)
            {
                Debug.LogWarning("SinewCloth: skinSource's Transform is scaled; the skin is placed by its position and rotation only", this);
            }
            _skinColors = new Color[0];
            if (painted != null && (maxDistanceChannel != ColorChannel.None || (useBackstop && backstopChannel != ColorChannel.None)))
            {
                _skinColors = painted.colors;
                if (_skinColors.Length != vertexCount)
                {
                    Debug.LogWarning("SinewCloth: the mesh has no vertex colours for max distances or backstops; uniform values are used", this);
                    _skinColors = new Color[0];
                }
            }
            _bakedMesh = new Mesh { name = "sinew skin" };
            _skinPositions = new Vector3[vertexCount];
            _skinNormals = new Vector3[vertexCount];
            _maxDistances = new float[vertexCount];
            _backstops = new float[vertexCount];
            _skinning = true;
            SendSkin(); // turns _skinning off if sinew refuses it
        }

        // Bakes the skinned mesh, places it in world space and sends it to sinew.
        void SendSkin()
        {
            skinSource.BakeMesh(_bakedMesh);
            Vector3 position = skinSource.transform.position;
            Quaternion rotation = skinSource.transform.rotation;
            _bakedMesh.GetVertices(_bakedList);
            if (_bakedList.Count != _skinPositions.Length)
            {
                Debug.LogError("SinewCloth: skinSource's baked mesh changed its vertex count; skinning is off", this);
                _skinning = false;
                return;
            }
            for (int i = 0; i < _skinPositions.Length; i++) _skinPositions[i] = position + rotation * _bakedList[i];
            _bakedMesh.GetNormals(_bakedList);
            bool haveNormals = _bakedList.Count == _skinNormals.Length;
            for (int i = 0; i < _skinNormals.Length; i++)
            {
                Vector3 n = haveNormals ? rotation * _bakedList[i] : Vector3.zero;
                if (invertSkinNormals) n = -n;
                // sinew refuses a zero normal: keep the last one (or up).
                if (n.x != 0f || n.y != 0f || n.z != 0f) _skinNormals[i] = n;
                else if (_skinNormals[i].x == 0f && _skinNormals[i].y == 0f && _skinNormals[i].z == 0f) _skinNormals[i] = Vector3.up;
            }
            try
            {
                // Vector3 is SinewVec3 (three floats).
                fixed (Vector3* p = _skinPositions)
                fixed (Vector3* n = _skinNormals)
                {
                    world.World.SetClothSkin(_body, (SinewVec3*)p, (SinewVec3*)n, _skinPositions.Length);
                }
            }
            catch (SinewException e)
            {
                Debug.LogError("SinewCloth: sinew refused the skin (" + e.Message + "); skinning is off", this);
                _skinning = false;
            }
        }

        // Max distance and backstop per vertex: the value times the painted channel, or uniform.
        void ApplyMaxDistances()
        {
            bool painted = _skinColors.Length == _maxDistances.Length;
            for (int i = 0; i < _maxDistances.Length; i++)
            {
                float md = maxDistance, bs = backstop;
                if (painted && maxDistanceChannel != ColorChannel.None) md *= Mathf.Clamp01(Channel(_skinColors[i], maxDistanceChannel));
                if (painted && backstopChannel != ColorChannel.None) bs *= Mathf.Clamp01(Channel(_skinColors[i], backstopChannel));
                _maxDistances[i] = md;
                _backstops[i] = bs;
            }
            world.World.SetClothMaxDistances(_body, _maxDistances, useBackstop ? _backstops : null);
        }

        float Channel(Color c)
        {
            return Channel(c, pinColorChannel);
        }

        static float Channel(Color c, ColorChannel channel)
        {
            switch (channel)
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
            if (_skinning) ApplyMaxDistances();
        }

        void OnValidate()
        {
            if (Application.isPlaying) ApplySettings();
        }

        void FixedUpdate()
        {
            if (!_created || world == null || world.World == null) return;
            if (_skinning && skinSource != null) SendSkin();
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
            if (_bakedMesh != null) Destroy(_bakedMesh);
            _skinning = false;
            if (_sourceRenderer != null) _sourceRenderer.enabled = true;
        }
    }
}
