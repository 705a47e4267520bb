// Skeleton: a ragdoll definition checked and built once, shared by every
// ragdoll made from it (World.CreateRagdoll(skeleton, at)), in any world.
// Plain C# 7.3 without UnityEngine (compiled and run under Mono by
// tests/csharp_binding.rs).
using System;

namespace Sinew
{
    /// <summary>
    /// Owns a SinewSkeleton*; releases it on Dispose or, failing that, from
    /// the finalizer thread (sinew_skeleton_destroy may run on any thread).
    /// </summary>
    public sealed unsafe class SkeletonHandle : NativeHandle
    {
        public SkeletonHandle() : base(IntPtr.Zero) { }

        internal SkeletonHandle(SinewSkeleton* skeleton) : base((IntPtr)skeleton) { }

        protected override bool ReleaseHandle()
        {
            Native.sinew_skeleton_destroy((SinewSkeleton*)handle);
            return true;
        }
    }

    /// <summary>
    /// A skeleton many ragdolls share. Immutable: any thread may use it.
    /// Ragdolls made from it keep it alive, so it may be disposed while
    /// they live.
    /// </summary>
    public sealed unsafe class Skeleton : IDisposable
    {
        readonly SkeletonHandle _handle;

        internal Skeleton(SinewSkeleton* raw)
        {
            _handle = new SkeletonHandle(raw);
        }

        /// <summary>
        /// Builds a skeleton from bone defs (a parent before its children,
        /// the root first; names as for World.CreateRagdoll). Its rest pose
        /// is what each ragdoll of it places at its own transform.
        /// </summary>
        public static Skeleton Create(SinewBoneDef[] bones, string[] names = null)
        {
            SinewSkeleton* raw = null;
            RagdollDefs.With(bones, names, def =>
            {
                SinewSkeleton* made;
                SinewException.Check(Native.sinew_skeleton_create(def, &made));
                raw = made;
            });
            return new Skeleton(raw);
        }

        /// <summary>The 17-bone humanoid preset, height metres tall, standing on the origin facing +Z.</summary>
        public static Skeleton Humanoid(float height)
        {
            SinewSkeleton* raw;
            SinewException.Check(Native.sinew_skeleton_create_humanoid(height, &raw));
            return new Skeleton(raw);
        }

        /// <summary>Number of bones.</summary>
        public int BoneCount
        {
            get
            {
                uint count;
                SinewSkeleton* s = Acquire();
                try { SinewException.Check(Native.sinew_skeleton_bone_count(s, &count)); }
                finally { Release(); }
                return (int)count;
            }
        }

        public bool IsDisposed
        {
            get { return _handle.IsClosed; }
        }

        /// <summary>Releases this handle; ragdolls of the skeleton live on. Idempotent.</summary>
        public void Dispose()
        {
            _handle.Dispose();
        }

        internal SinewSkeleton* Acquire()
        {
            bool added = false;
            _handle.DangerousAddRef(ref added); // throws ObjectDisposedException once disposed
            return (SinewSkeleton*)_handle.DangerousGetHandle();
        }

        internal void Release()
        {
            _handle.DangerousRelease();
        }
    }

    /// <summary>Marshals bone defs and names into a SinewRagdollDef for one call.</summary>
    internal static unsafe class RagdollDefs
    {
        internal delegate void User(SinewRagdollDef* def);

        /// <summary>
        /// Calls use with a def over a copy of bones whose names (may be
        /// null, or null entries) are pinned UTF-8 for the call.
        /// </summary>
        internal static void With(SinewBoneDef[] bones, string[] names, User use)
        {
            if (bones == null) throw new ArgumentNullException("bones");
            if (names != null && names.Length != bones.Length)
                throw new ArgumentException("names must be null or one per bone");
            // All names in one NUL-separated UTF-8 buffer, pinned for the call.
            var offsets = new int[bones.Length];
            var text = new System.Collections.Generic.List<byte>();
            for (int b = 0; b < bones.Length; ++b)
            {
                offsets[b] = -1;
                if (names == null || names[b] == null) continue;
                offsets[b] = text.Count;
                text.AddRange(System.Text.Encoding.UTF8.GetBytes(names[b]));
                text.Add(0);
            }
            text.Add(0);
            byte[] utf8 = text.ToArray();
            var copy = (SinewBoneDef[])bones.Clone();
            fixed (byte* chars = utf8)
            fixed (SinewBoneDef* p = copy)
            {
                for (int b = 0; b < copy.Length; ++b)
                {
                    copy[b].name = offsets[b] < 0 ? null : chars + offsets[b];
                }
                SinewRagdollDef def = Native.sinew_default_ragdoll_def();
                def.bones = p;
                def.bone_count = checked((uint)copy.Length);
                use(&def);
            }
        }
    }
}
