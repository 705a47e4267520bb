// A grid cloth: built with sinew_cloth_create_grid where this GameObject
// stands (the grid spans its local XY plane, +X columns, -Y rows), rendered
// through this GameObject's MeshFilter, whose vertices and normals are
// rewritten every frame straight from sinew into NativeArrays (no managed
// copies). Particles can be pinned to Transforms (animated hooks, hands).
//
// Written against shared/API.md's cloth functions, which were being added to
// sinew.h while this was written; it compiles once Native.g.cs is regenerated
// from a header that has them. Not compiled or run here (needs Unity).
using System.Collections.Generic;
using Unity.Collections;
using Unity.Collections.LowLevel.Unsafe;
using UnityEngine;

namespace Sinew.Unity
{
    [RequireComponent(typeof(MeshFilter), typeof(MeshRenderer))]
    public sealed unsafe class SinewCloth : MonoBehaviour
    {
        [System.Serializable]
        public struct Pin
        {
            [Tooltip("Particle index: row * columns + column")]
            public int particle;
            public Transform target;
        }

        public SinewWorldBehaviour world;
        [Min(2)] public int columns = 16;
        [Min(2)] public int rows = 16;
        [Min(0.001f)] public float spacing = 0.1f;
        [Min(0.001f)] public float mass = 1f;
        [Min(0f)] public float stretchCompliance = 0f;
        [Min(0f)] public float shearCompliance = 1e-4f;
        [Min(0f)] public float bendCompliance = 1e-2f;
        public bool pinTopEdge = true;
        public List<Pin> pins = new List<Pin>();

        SinewBodyId _body;
        Mesh _mesh;
        NativeArray<Vector3> _vertices;
        NativeArray<Vector3> _normals;
        SinewTarget[] _targets = new SinewTarget[0];

        void Start()
        {
            world = SinewWorldBehaviour.Find(world);
            SinewClothGridDef def = Native.sinew_default_cloth_grid_def();
            def.transform = SinewWorldBehaviour.ToSinew(transform.position, transform.rotation);
            def.columns = (uint)columns;
            def.rows = (uint)rows;
            def.spacing = spacing;
            def.mass = mass;
            def.stretch_compliance = stretchCompliance;
            def.shear_compliance = shearCompliance;
            def.bend_compliance = bendCompliance;
            def.pin_flags = pinTopEdge ? Native.SINEW_PIN_TOP_EDGE : 0u;
            SinewBodyId body;
            SinewException.Check(Native.sinew_cloth_create_grid(world.World.Pointer, &def, &body));
            _body = body;

            int count = columns * rows;
            _vertices = new NativeArray<Vector3>(count, Allocator.Persistent);
            _normals = new NativeArray<Vector3>(count, Allocator.Persistent);
            _mesh = new Mesh { name = "sinew cloth" };
            _mesh.MarkDynamic();
            var indices = new int[(columns - 1) * (rows - 1) * 6];
            int k = 0;
            for (int r = 0; r + 1 < rows; r++)
            {
                for (int c = 0; c + 1 < columns; c++)
                {
                    int i = r * columns + c;
                    indices[k++] = i; indices[k++] = i + 1; indices[k++] = i + columns;
                    indices[k++] = i + 1; indices[k++] = i + columns + 1; indices[k++] = i + columns;
                }
            }
            ReadBack();
            _mesh.SetIndices(indices, MeshTopology.Triangles, 0);
            GetComponent<MeshFilter>().sharedMesh = _mesh;
            // sinew's positions are in world space: render with an identity transform.
            transform.SetPositionAndRotation(Vector3.zero, Quaternion.identity);
            transform.localScale = Vector3.one;
        }

        void FixedUpdate()
        {
            if (world == null || world.World == null || pins.Count == 0) return;
            if (_targets.Length != pins.Count) _targets = new SinewTarget[pins.Count];
            for (int i = 0; i < pins.Count; i++)
            {
                _targets[i].particle = (uint)pins[i].particle;
                _targets[i].position = SinewWorldBehaviour.ToSinew(pins[i].target.position);
                _targets[i].compliance = 0f;
                _targets[i].max_force = 0f;
            }
            world.World.SetTargets(_body, _targets);
        }

        void LateUpdate()
        {
            if (world != null && world.World != null) ReadBack();
        }

        void ReadBack()
        {
            // Vector3 and SinewVec3 are both three floats: sinew writes into the mesh arrays.
            void* vertices = NativeArrayUnsafeUtility.GetUnsafeBufferPointerWithoutChecks(_vertices);
            void* normals = NativeArrayUnsafeUtility.GetUnsafeBufferPointerWithoutChecks(_normals);
            world.World.ReadPositions(_body, vertices, _vertices.Length);
            uint count;
            SinewException.Check(Native.sinew_cloth_read_normals(
                world.World.Pointer, _body, (SinewVec3*)normals, (uint)_normals.Length, &count));
            _mesh.SetVertices(_vertices);
            _mesh.SetNormals(_normals);
            _mesh.RecalculateBounds();
        }

        void OnDestroy()
        {
            if (world != null && world.World != null && !world.World.IsDisposed && world.World.IsValid(_body))
                world.World.DestroyBody(_body);
            if (_vertices.IsCreated) _vertices.Dispose();
            if (_normals.IsCreated) _normals.Dispose();
            if (_mesh != null) Destroy(_mesh);
        }
    }
}
