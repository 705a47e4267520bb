// RagdollRig: the pose math between an engine's skeleton and sinew's
// humanoid preset, and PoseMath, the few quaternion and rigid-transform
// operations it needs. Plain C# 7.3 without UnityEngine, so it runs under
// Mono in tests/csharp_binding.rs; SinewRagdoll (Runtime/Components) only
// turns Transforms into SinewTransforms and back.
//
// sinew's bones run along their local +Y, from a head to a tail; an engine's
// bones have axes of their own. At creation the preset is *fitted* to the
// character as it stands: each bone takes its rest turn relative to its
// posed parent, then the shortest arc that points its +Y from its head to
// the next bone's head on the character (the spine to the chest, the upper
// arm to the forearm, ...), so each joint changes by the least rotation and
// gains no twist its limits would fight; the heads are placed down the chain
// from the character's hips with the preset's own proportions. Leaves (head,
// hands, feet) keep their rest orientation relative to their parent. The
// ragdoll keeps the preset's rest (arms down), about which its joint limits
// are given. That fitted pose becomes the
// ragdoll's pose (World.SetRagdollPose), and each bone keeps its bind offset
//
//     offset = inverse(fitted sinew frame) * engine bone     (rigid transforms)
//
// so engine bone = sinew frame * offset holds exactly at creation: no snap,
// whatever the engine's bone axes, the character's size or its pose (T-pose,
// A-pose, arms down) when it was created. Every frame:
//
//     motor target = animated engine bone * inverse(offset)   (ToTargets)
//     engine bone  = simulated sinew frame * offset           (ToEngine)
//
// A missing engine bone (an avatar without a Chest or Neck) is not written;
// its target follows its parent's at the rest offset.
using System;

namespace Sinew
{
    /// <summary>Unit quaternions (x, y, z, w) and rigid transforms, as sinew uses them.</summary>
    public static class PoseMath
    {
        public static SinewVec3 Vec(float x, float y, float z)
        {
            SinewVec3 v;
            v.x = x;
            v.y = y;
            v.z = z;
            return v;
        }

        public static SinewQuat Quat(float x, float y, float z, float w)
        {
            SinewQuat q;
            q.x = x;
            q.y = y;
            q.z = z;
            q.w = w;
            return q;
        }

        public static SinewQuat Identity
        {
            get { return Quat(0f, 0f, 0f, 1f); }
        }

        /// <summary>Rotation by angle (radians) about a unit axis.</summary>
        public static SinewQuat AxisAngle(SinewVec3 axis, float angle)
        {
            float s = (float)Math.Sin(0.5 * angle);
            return Quat(axis.x * s, axis.y * s, axis.z * s, (float)Math.Cos(0.5 * angle));
        }

        /// <summary>a * b: b first, then a (as Unity's Quaternion operator).</summary>
        public static SinewQuat Mul(SinewQuat a, SinewQuat b)
        {
            return Quat(
                a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
        }

        /// <summary>The inverse of a unit quaternion (its conjugate).</summary>
        public static SinewQuat Inverse(SinewQuat q)
        {
            return Quat(-q.x, -q.y, -q.z, q.w);
        }

        public static SinewQuat Normalize(SinewQuat q)
        {
            float n = (float)Math.Sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
            return n > 0f ? Quat(q.x / n, q.y / n, q.z / n, q.w / n) : Identity;
        }

        /// <summary>v turned by the unit quaternion q.</summary>
        public static SinewVec3 Rotate(SinewQuat q, SinewVec3 v)
        {
            // t = 2 q.xyz x v; v' = v + w t + q.xyz x t
            float tx = 2f * (q.y * v.z - q.z * v.y);
            float ty = 2f * (q.z * v.x - q.x * v.z);
            float tz = 2f * (q.x * v.y - q.y * v.x);
            return Vec(
                v.x + q.w * tx + (q.y * tz - q.z * ty),
                v.y + q.w * ty + (q.z * tx - q.x * tz),
                v.z + q.w * tz + (q.x * ty - q.y * tx));
        }

        public static SinewVec3 Add(SinewVec3 a, SinewVec3 b)
        {
            return Vec(a.x + b.x, a.y + b.y, a.z + b.z);
        }

        public static SinewVec3 Sub(SinewVec3 a, SinewVec3 b)
        {
            return Vec(a.x - b.x, a.y - b.y, a.z - b.z);
        }

        public static float Length(SinewVec3 v)
        {
            return (float)Math.Sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
        }

        /// <summary>The angle (radians, 0..pi) between two rotations.</summary>
        public static float Angle(SinewQuat a, SinewQuat b)
        {
            // From the relative rotation's sine and cosine of half the angle:
            // acos of a dot product near 1 would lose small angles to rounding.
            SinewQuat r = Mul(Inverse(a), b);
            double s = Math.Sqrt((double)r.x * r.x + (double)r.y * r.y + (double)r.z * r.z);
            return (float)(2.0 * Math.Atan2(s, Math.Abs((double)r.w)));
        }

        /// <summary>The shortest rotation taking unit vector from onto unit vector to.</summary>
        public static SinewQuat FromTo(SinewVec3 from, SinewVec3 to)
        {
            float d = from.x * to.x + from.y * to.y + from.z * to.z;
            if (d < -0.999999f)
            {
                // Opposite: half a turn about any axis perpendicular to from.
                SinewVec3 axis = Math.Abs(from.x) < 0.9f ? Vec(0f, from.z, -from.y) : Vec(-from.z, 0f, from.x);
                float n = Length(axis);
                return Quat(axis.x / n, axis.y / n, axis.z / n, 0f);
            }
            // (from x to, 1 + from . to), normalised: half the angle.
            return Normalize(Quat(
                from.y * to.z - from.z * to.y,
                from.z * to.x - from.x * to.z,
                from.x * to.y - from.y * to.x,
                1f + d));
        }

        /// <summary>a * b: b expressed in a's frame, placed in a's space.</summary>
        public static SinewTransform Mul(SinewTransform a, SinewTransform b)
        {
            SinewTransform t;
            t.position = Add(a.position, Rotate(a.rotation, b.position));
            t.rotation = Normalize(Mul(a.rotation, b.rotation));
            return t;
        }

        public static SinewTransform Inverse(SinewTransform t)
        {
            SinewTransform r;
            r.rotation = Inverse(t.rotation);
            SinewVec3 p = Rotate(r.rotation, t.position);
            r.position = Vec(-p.x, -p.y, -p.z);
            return r;
        }
    }

    /// <summary>
    /// Bind offsets between the engine's bones and sinew's humanoid preset,
    /// taken once at creation (see the file's comment).
    /// </summary>
    public sealed class RagdollRig
    {
        /// <summary>The preset's parent of each bone (sinew.h's order), -1 for the pelvis.</summary>
        public static readonly int[] HumanoidParents = { -1, 0, 1, 2, 3, 2, 5, 6, 2, 8, 9, 0, 11, 12, 0, 14, 15 };

        /// <summary>The bone whose head a bone's tail reaches (-1: a leaf).</summary>
        public static readonly int[] HumanoidTails = { 1, 2, 3, 4, -1, 6, 7, -1, 9, 10, -1, 12, 13, -1, 15, 16, -1 };

        readonly SinewTransform[] _rest;
        readonly SinewTransform[] _offsets;
        readonly bool[] _present;

        /// <summary>Number of bones.</summary>
        public int Count
        {
            get { return _rest.Length; }
        }

        /// <summary>
        /// Fits the preset to the engine's bones as they stand. rest: the
        /// ragdoll's bones as World.ReadBones gives them right after
        /// creation; engine: each engine bone's world position and rotation
        /// (sinew's bone order); present: false for bones the engine lacks
        /// (null = all present; the root must be). posed receives the
        /// fitted pose, to give World.SetRagdollPose.
        /// </summary>
        public RagdollRig(SinewTransform[] rest, SinewTransform[] engine, bool[] present, SinewTransform[] posed)
        {
            if (rest == null || engine == null || posed == null) throw new ArgumentNullException(rest == null ? "rest" : engine == null ? "engine" : "posed");
            int n = rest.Length;
            if (n != HumanoidParents.Length) throw new ArgumentException("the humanoid preset has " + HumanoidParents.Length + " bones, rest has " + n);
            if (engine.Length != n || posed.Length != n || (present != null && present.Length != n))
                throw new ArgumentException("engine, present and posed need one entry per bone (" + n + ")");
            if (present != null && !present[0]) throw new ArgumentException("the root (pelvis) bone is missing");
            _rest = (SinewTransform[])rest.Clone();
            _present = new bool[n];
            for (int b = 0; b < n; b++) _present[b] = present == null || present[b];
            _offsets = new SinewTransform[n];
            SinewVec3 up = PoseMath.Vec(0f, 1f, 0f);
            for (int b = 0; b < n; b++)
            {
                int parent = HumanoidParents[b];
                SinewQuat rotation;
                if (parent < 0)
                {
                    rotation = _rest[0].rotation;
                    posed[b].position = engine[0].position;
                }
                else
                {
                    // Leaves and missing bones keep their rest turn relative to the parent.
                    rotation = PoseMath.Mul(posed[parent].rotation, Relative(parent, b).rotation);
                    posed[b].position = PoseMath.Mul(posed[parent], Relative(parent, b)).position;
                }
                int tail = ReachedBone(b);
                if (_present[b] && tail >= 0)
                {
                    SinewVec3 d = PoseMath.Sub(engine[tail].position, engine[b].position);
                    float length = PoseMath.Length(d);
                    if (length > 1e-6f)
                    {
                        // From the turn the parent's pose predicts: the arc is then the
                        // least change of the joint, with no twist its limits would fight.
                        d = PoseMath.Vec(d.x / length, d.y / length, d.z / length);
                        SinewVec3 along = PoseMath.Rotate(rotation, up);
                        rotation = PoseMath.Mul(PoseMath.FromTo(along, d), rotation);
                    }
                }
                posed[b].rotation = PoseMath.Normalize(rotation);
                _offsets[b] = PoseMath.Mul(PoseMath.Inverse(posed[b]), engine[b]);
            }
        }

        /// <summary>bone a's rest frame seen from bone p's: inverse(rest p) * rest a.</summary>
        SinewTransform Relative(int p, int a)
        {
            return PoseMath.Mul(PoseMath.Inverse(_rest[p]), _rest[a]);
        }

        /// <summary>The first present bone down the tail chain of b, or -1.</summary>
        int ReachedBone(int b)
        {
            for (int t = HumanoidTails[b]; t >= 0; t = HumanoidTails[t])
            {
                if (_present[t]) return t;
            }
            return -1;
        }

        /// <summary>Whether the engine has bone b (from the constructor).</summary>
        public bool IsPresent(int bone)
        {
            return _present[bone];
        }

        /// <summary>The bind offset of a bone: engine bone = sinew frame * offset.</summary>
        public SinewTransform Offset(int bone)
        {
            return _offsets[bone];
        }

        /// <summary>
        /// The motor targets (for World.SetRagdollMotorTargets) of an
        /// animated engine pose (world space, sinew's bone order; entries of
        /// missing bones are ignored).
        /// </summary>
        public void ToTargets(SinewTransform[] engine, SinewTransform[] targets)
        {
            Check(engine, targets);
            for (int b = 0; b < _rest.Length; b++)
            {
                targets[b] = _present[b]
                    ? PoseMath.Mul(engine[b], PoseMath.Inverse(_offsets[b]))
                    : PoseMath.Mul(targets[HumanoidParents[b]], Relative(HumanoidParents[b], b));
            }
        }

        /// <summary>
        /// The engine pose of a simulated one (World.ReadBones): each present
        /// bone's world position and rotation. Missing bones are left as
        /// they were.
        /// </summary>
        public void ToEngine(SinewTransform[] simulated, SinewTransform[] engine)
        {
            Check(simulated, engine);
            for (int b = 0; b < _rest.Length; b++)
            {
                if (_present[b]) engine[b] = PoseMath.Mul(simulated[b], _offsets[b]);
            }
        }

        void Check(SinewTransform[] from, SinewTransform[] to)
        {
            if (from == null || to == null) throw new ArgumentNullException(from == null ? "from" : "to");
            if (from.Length != _rest.Length || to.Length != _rest.Length)
                throw new ArgumentException("one transform per bone (" + _rest.Length + ")");
        }
    }
}
