// A sinew World in a scene: created in Awake, stepped in FixedUpdate after
// the other components' FixedUpdate (they set pins and targets first),
// disposed in OnDestroy. Needs UnityEngine: not compiled outside Unity.
using UnityEngine;

namespace Sinew.Unity
{
    [DefaultExecutionOrder(100)]
    [DisallowMultipleComponent]
    public sealed class SinewWorldBehaviour : MonoBehaviour
    {
        public Vector3 gravity = new Vector3(0f, -9.81f, 0f);
        [Range(0f, 1f)] public float damping = 0.01f;
        [Range(1, 64)] public int substeps = 8;
        [Range(1, 16)] public int iterations = 1;
        [Tooltip("Wind every cloth feels, m/s (changes apply while playing)")]
        public Vector3 wind = Vector3.zero;
        [Tooltip("kg/m^3; 0 = no air")]
        [Min(0f)] public float airDensity = 1.2f;
        [Tooltip("Bodies slower than this (m/s) for sleepTime fall asleep; 0 = never")]
        [Min(0f)] public float sleepSpeed = 0.02f;
        [Min(0f)] public float sleepTime = 1f;

        Vector3 _appliedWind;

        /// <summary>The world; null before Awake and after OnDestroy.</summary>
        public World World { get; private set; }

        void Awake()
        {
            Library.CheckAbi();
            SinewWorldDef def = World.DefaultDef();
            def.gravity = ToSinew(gravity);
            def.damping = damping;
            def.substeps = (uint)substeps;
            def.iterations = (uint)iterations;
            def.wind = ToSinew(wind);
            def.air_density = airDensity;
            def.sleep_speed = sleepSpeed;
            def.sleep_time = sleepTime;
            World = new World(def);
            _appliedWind = wind;
        }

        void FixedUpdate()
        {
            if (World == null) return;
            if (wind != _appliedWind)
            {
                World.SetWind(ToSinew(wind)); // wakes every body: only when it changed
                _appliedWind = wind;
            }
            World.Step(Time.fixedDeltaTime);
        }

        void OnDestroy()
        {
            if (World != null) World.Dispose();
            World = null;
        }

        /// <summary>The world of the scene's first SinewWorldBehaviour.</summary>
        public static SinewWorldBehaviour Find(SinewWorldBehaviour preferred)
        {
            return preferred != null ? preferred : FindObjectOfType<SinewWorldBehaviour>();
        }

        public static SinewVec3 ToSinew(Vector3 v)
        {
            SinewVec3 s;
            s.x = v.x;
            s.y = v.y;
            s.z = v.z;
            return s;
        }

        public static Vector3 ToUnity(SinewVec3 v)
        {
            return new Vector3(v.x, v.y, v.z);
        }

        public static SinewQuat ToSinew(Quaternion q)
        {
            SinewQuat s;
            s.x = q.x;
            s.y = q.y;
            s.z = q.z;
            s.w = q.w;
            return s;
        }

        public static Quaternion ToUnity(SinewQuat q)
        {
            return new Quaternion(q.x, q.y, q.z, q.w);
        }

        public static SinewTransform ToSinew(Vector3 position, Quaternion rotation)
        {
            SinewTransform t;
            t.position = ToSinew(position);
            t.rotation = ToSinew(rotation);
            return t;
        }
    }
}
