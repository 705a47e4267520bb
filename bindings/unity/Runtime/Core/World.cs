// World: the owner of a native sinew world, over the generated Native layer.
// Plain C# 7.3 without UnityEngine (compiled and run under Mono by
// tests/csharp_binding.rs).
//
// Failures throw SinewException (code + sinew's message). Arrays are passed
// either as managed arrays or as raw pointers with a count. The pointer
// overloads are the zero-copy path for Unity: SinewVec3 has the layout of
// UnityEngine.Vector3 (three floats, 12 bytes), so a NativeArray<Vector3>'s
// NativeArrayUnsafeUtility.GetUnsafeBufferPointerWithoutChecks (or
// GetUnsafePtr) can be passed as `void*` to ReadPositions, and sinew writes
// straight into it; likewise Quaternion is SinewQuat (x, y, z, w).
using System;
using System.Runtime.InteropServices;

namespace Sinew
{
    /// <summary>A handle that owns a native object; NULL is invalid.</summary>
    public abstract class NativeHandle : SafeHandle
    {
        protected NativeHandle(IntPtr owned) : base(IntPtr.Zero, true)
        {
            SetHandle(owned);
        }

        public override bool IsInvalid
        {
            get { return handle == IntPtr.Zero; }
        }
    }

    /// <summary>
    /// Owns a SinewWorld*; destroys it on Dispose or, failing that, from the
    /// finalizer thread (sinew_world_destroy may run on any thread).
    /// </summary>
    public sealed unsafe class WorldHandle : NativeHandle
    {
        public WorldHandle() : base(IntPtr.Zero) { }

        internal WorldHandle(SinewWorld* world) : base((IntPtr)world) { }

        protected override bool ReleaseHandle()
        {
            Native.sinew_world_destroy((SinewWorld*)handle);
            return true;
        }
    }

    /// <summary>
    /// A sinew world: bodies (ids as values), colliders, stepping, readback,
    /// snapshots. Dispose it (Unity: in OnDestroy); ids die with it.
    /// </summary>
    /// <remarks>
    /// Each call holds a reference on the handle while the native function
    /// runs, so a Dispose from another thread waits for the call rather than
    /// freeing the world under it. Thread rules are sinew.h's: calls on one
    /// world are serialised by its lock, different worlds run in parallel.
    /// </remarks>
    public sealed unsafe class World : IDisposable
    {
        readonly WorldHandle _handle;

        /// <summary>A world with sinew's default settings.</summary>
        public World() : this(Native.sinew_default_world_def()) { }

        /// <summary>A world from settings made by <see cref="DefaultDef"/>.</summary>
        public World(SinewWorldDef def)
        {
            SinewWorld* raw = null;
            SinewException.Check(Native.sinew_world_create(&def, &raw));
            _handle = new WorldHandle(raw);
        }

        /// <summary>Default settings, to change and pass to the constructor.</summary>
        public static SinewWorldDef DefaultDef()
        {
            return Native.sinew_default_world_def();
        }

        /// <summary>The SafeHandle owning the native world.</summary>
        public WorldHandle Handle
        {
            get { return _handle; }
        }

        /// <summary>
        /// The raw world for Native calls this class does not wrap; valid
        /// until Dispose, and not protected against a concurrent Dispose.
        /// </summary>
        public SinewWorld* Pointer
        {
            get
            {
                if (_handle.IsClosed) throw new ObjectDisposedException("Sinew.World");
                return (SinewWorld*)_handle.DangerousGetHandle();
            }
        }

        public bool IsDisposed
        {
            get { return _handle.IsClosed; }
        }

        /// <summary>Destroys the world and everything in it. Idempotent.</summary>
        public void Dispose()
        {
            _handle.Dispose();
        }

        SinewWorld* Acquire()
        {
            bool added = false;
            _handle.DangerousAddRef(ref added); // throws ObjectDisposedException once disposed
            return (SinewWorld*)_handle.DangerousGetHandle();
        }

        void Release()
        {
            _handle.DangerousRelease();
        }

        // ---- world ----------------------------------------------------------

        /// <summary>Advances by dt seconds (in [1e-6, 1]).</summary>
        public void Step(float dt)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_step(w, dt)); }
            finally { Release(); }
        }

        /// <summary>Moves the world's origin to <paramref name="offset"/> (a floating origin): nothing moves.</summary>
        public void ShiftOrigin(SinewVec3 offset)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_shift_origin(w, offset)); }
            finally { Release(); }
        }

        public void SetGravity(SinewVec3 gravity)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_set_gravity(w, gravity)); }
            finally { Release(); }
        }

        /// <summary>The wind every cloth feels (m/s) from the next step on; wakes every body.</summary>
        public void SetWind(SinewVec3 wind)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_set_wind(w, wind)); }
            finally { Release(); }
        }

        /// <summary>The world's current settings.</summary>
        public SinewWorldDef GetDef()
        {
            SinewWorldDef def;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_get_def(w, &def)); }
            finally { Release(); }
            return def;
        }

        /// <summary>A hash of the state that decides the future (desync checks).</summary>
        public ulong StateHash()
        {
            ulong hash;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_state_hash(w, &hash)); }
            finally { Release(); }
            return hash;
        }

        /// <summary>The SIMD level the kernels run at (SINEW_SIMD_SCALAR .. SINEW_SIMD_AVX512).</summary>
        public uint SimdLevel()
        {
            uint level;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_get_simd_level(w, &level)); }
            finally { Release(); }
            return level;
        }

        /// <summary>How many times a step went non-finite and was undone (0 when healthy).</summary>
        public ulong RecoveryCount()
        {
            ulong count;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_recovery_count(w, &count)); }
            finally { Release(); }
            return count;
        }

        /// <summary>Constraints in the world, as max_constraints counts them (joints included).</summary>
        public int ConstraintCount()
        {
            uint count;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_constraint_count(w, &count)); }
            finally { Release(); }
            return (int)count;
        }

        /// <summary>Substeps per step (1..=1024), from the next step on.</summary>
        public void SetSubsteps(int substeps)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_set_substeps(w, (uint)substeps)); }
            finally { Release(); }
        }

        /// <summary>Relaxation passes per substep (1..=1024), from the next step on.</summary>
        public void SetIterations(int iterations)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_set_iterations(w, (uint)iterations)); }
            finally { Release(); }
        }

        /// <summary>When bodies fall asleep; a sleep speed of 0 turns sleeping off and wakes every body.</summary>
        public void SetSleep(float sleepSpeed, float sleepTime)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_set_sleep(w, sleepSpeed, sleepTime)); }
            finally { Release(); }
        }

        /// <summary>A SINEW_SIMD_* level from the next step on (capped by the CPU's).</summary>
        public void SetSimdLevel(uint level)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_set_simd_level(w, level)); }
            finally { Release(); }
        }

        /// <summary>Threads that may work on one step (1..=64), from the next step on.</summary>
        public void SetWorkerCount(int count)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_set_worker_count(w, (uint)count)); }
            finally { Release(); }
        }

        /// <summary>Times the stages of the coming steps (true) or stops (the default).</summary>
        public void SetProfiling(bool on)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_set_profiling(w, on ? 1u : 0u)); }
            finally { Release(); }
        }

        /// <summary>Where the last step's time went, stage by stage, in ms (all zero when not profiling).</summary>
        public SinewProfile Profile()
        {
            SinewProfile profile;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_get_profile(w, &profile)); }
            finally { Release(); }
            return profile;
        }

        /// <summary>
        /// Writes a snapshot into buffer[0 .. capacity) and returns its size;
        /// buffer null with capacity 0 returns the size only.
        /// </summary>
        public long Snapshot(byte* buffer, long capacity)
        {
            UIntPtr size;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_snapshot(w, buffer, new UIntPtr((ulong)capacity), &size)); }
            finally { Release(); }
            return (long)(ulong)size;
        }

        /// <summary>A snapshot of the whole world in a new array.</summary>
        public byte[] Snapshot()
        {
            byte[] bytes = new byte[Snapshot(null, 0)];
            fixed (byte* p = bytes)
            {
                Snapshot(p, bytes.Length);
            }
            return bytes;
        }

        public void Restore(byte* bytes, long size)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_restore(w, bytes, new UIntPtr((ulong)size))); }
            finally { Release(); }
        }

        public void Restore(byte[] bytes)
        {
            fixed (byte* p = bytes)
            {
                Restore(p, bytes.Length);
            }
        }

        // ---- bodies ---------------------------------------------------------

        /// <summary>A body of count particles; invMasses null = all 1 (0 pins).</summary>
        public SinewBodyId CreateParticles(SinewVec3* positions, float* invMasses, int count)
        {
            SinewBodyId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_create_particles(w, positions, invMasses, Count(count), &id)); }
            finally { Release(); }
            return id;
        }

        public SinewBodyId CreateParticles(SinewVec3[] positions, float[] invMasses = null)
        {
            if (positions == null) throw new ArgumentNullException("positions");
            if (invMasses != null && invMasses.Length != positions.Length)
                throw new ArgumentException("invMasses must be null or as long as positions");
            fixed (SinewVec3* p = positions)
            fixed (float* m = invMasses)
            {
                return CreateParticles(p, invMasses == null ? null : m, positions.Length);
            }
        }

        public void DestroyBody(SinewBodyId body)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_destroy(w, body)); }
            finally { Release(); }
        }

        /// <summary>True when body is a live body of this world.</summary>
        public bool IsValid(SinewBodyId body)
        {
            SinewWorld* w = Acquire();
            try { return Native.sinew_body_is_valid(w, body) != 0; }
            finally { Release(); }
        }

        public int ParticleCount(SinewBodyId body)
        {
            uint count;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_particle_count(w, body, &count)); }
            finally { Release(); }
            return (int)count;
        }

        /// <summary>A body's constraints, as max_constraints counts them (the humanoid: 236).</summary>
        public int ConstraintCount(SinewBodyId body)
        {
            uint count;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_constraint_count(w, body, &count)); }
            finally { Release(); }
            return (int)count;
        }

        public void AddDistanceConstraints(SinewBodyId body, SinewDistanceConstraint* constraints, int count)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_add_distance_constraints(w, body, constraints, Count(count))); }
            finally { Release(); }
        }

        public void AddDistanceConstraints(SinewBodyId body, SinewDistanceConstraint[] constraints)
        {
            fixed (SinewDistanceConstraint* p = constraints)
            {
                AddDistanceConstraints(body, p, constraints.Length);
            }
        }

        /// <summary>Native.SINEW_DISTANCE_METHOD_EXACT or _SQRT_APPROX.</summary>
        public void SetDistanceMethod(SinewBodyId body, uint method)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_set_distance_method(w, body, method)); }
            finally { Release(); }
        }

        public void SetParticleRadius(SinewBodyId body, float radius)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_set_particle_radius(w, body, radius)); }
            finally { Release(); }
        }

        public void SetTargets(SinewBodyId body, SinewTarget* targets, int count)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_set_targets(w, body, targets, Count(count))); }
            finally { Release(); }
        }

        public void SetTargets(SinewBodyId body, SinewTarget[] targets)
        {
            fixed (SinewTarget* p = targets)
            {
                SetTargets(body, p, targets.Length);
            }
        }

        public void ClearTargets(SinewBodyId body)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_clear_targets(w, body)); }
            finally { Release(); }
        }

        /// <summary>Carries the whole body (particles, targets, frame pins, skin) by the rigid motion
        /// from <paramref name="from"/> to <paramref name="to"/> at once, nothing swept: a respawn.
        /// Velocities turn with the motion, or become zero with <paramref name="zeroVelocity"/>.</summary>
        public void Teleport(SinewBodyId body, SinewTransform from, SinewTransform to, bool zeroVelocity)
        {
            SinewWorld* w = Acquire();
            uint mode = zeroVelocity ? Native.SINEW_TELEPORT_ZERO_VELOCITY : Native.SINEW_TELEPORT_KEEP_VELOCITY;
            try { SinewException.Check(Native.sinew_body_teleport(w, body, from, to, mode)); }
            finally { Release(); }
        }

        /// <summary>Teleports particles first .. first+count, keeping velocities.</summary>
        public void SetPositions(SinewBodyId body, int first, SinewVec3* positions, int count)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_set_positions(w, body, Count(first), positions, Count(count))); }
            finally { Release(); }
        }

        public void SetPositions(SinewBodyId body, int first, SinewVec3[] positions)
        {
            fixed (SinewVec3* p = positions)
            {
                SetPositions(body, first, p, positions.Length);
            }
        }

        /// <summary>Sets particles' velocities (m/s), positions unchanged.</summary>
        public void SetVelocities(SinewBodyId body, int first, SinewVec3[] velocities)
        {
            SinewWorld* w = Acquire();
            try
            {
                fixed (SinewVec3* p = velocities)
                {
                    SinewException.Check(Native.sinew_body_set_velocities(w, body, Count(first), p, Count(velocities.Length)));
                }
            }
            finally { Release(); }
        }

        /// <summary>Adds forces (N) to particles for the next step only.</summary>
        public void ApplyForces(SinewBodyId body, int first, SinewVec3[] forces)
        {
            SinewWorld* w = Acquire();
            try
            {
                fixed (SinewVec3* p = forces)
                {
                    SinewException.Check(Native.sinew_body_apply_forces(w, body, Count(first), p, Count(forces.Length)));
                }
            }
            finally { Release(); }
        }

        /// <summary>Jakobsen's motion control: moves particles now, adds offset/dt to their velocity.</summary>
        public void MoveParticles(SinewBodyId body, int first, SinewVec3* offsets, int count)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_move_particles(w, body, Count(first), offsets, Count(count))); }
            finally { Release(); }
        }

        public void MoveParticles(SinewBodyId body, int first, SinewVec3[] offsets)
        {
            fixed (SinewVec3* p = offsets)
            {
                MoveParticles(body, first, p, offsets.Length);
            }
        }

        public void SetInvMasses(SinewBodyId body, int first, float* invMasses, int count)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_set_inv_masses(w, body, Count(first), invMasses, Count(count))); }
            finally { Release(); }
        }

        public void SetInvMasses(SinewBodyId body, int first, float[] invMasses)
        {
            fixed (float* p = invMasses)
            {
                SetInvMasses(body, first, p, invMasses.Length);
            }
        }

        /// <summary>
        /// Pins count particles to a frame the engine moves (a bone, a pole, a
        /// platform): they become kinematic and keep their current place in
        /// frame; SetFrame moves them, interpolated across the substeps so the
        /// rest of the body is dragged along smoothly. Returns the frame's
        /// index within the body (0, 1, ...). A particle attached twice
        /// follows the later frame.
        /// </summary>
        public int AttachToFrame(SinewBodyId body, uint* particles, int count, SinewTransform frame)
        {
            uint index;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_attach_to_frame(w, body, particles, Count(count), frame, &index)); }
            finally { Release(); }
            return (int)index;
        }

        public int AttachToFrame(SinewBodyId body, int[] particles, SinewTransform frame)
        {
            if (particles == null) throw new ArgumentNullException("particles");
            // int indices have uint32's bits; a negative one is out of range for sinew.
            fixed (int* p = particles)
            {
                return AttachToFrame(body, (uint*)p, particles.Length, frame);
            }
        }

        /// <summary>
        /// Moves frame (an index from AttachToFrame) of a body: its particles
        /// reach their points in it at the end of the next step. Call it every
        /// frame the engine's transform moves.
        /// </summary>
        public void SetFrame(SinewBodyId body, int frame, SinewTransform transform)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_set_frame(w, body, Count(frame), transform)); }
            finally { Release(); }
        }

        /// <summary>
        /// Copies the body's positions into destination, which holds capacity
        /// 12-byte vectors (SinewVec3, or UnityEngine.Vector3 through a
        /// NativeArray's unsafe pointer); returns the particle count. A too
        /// small destination gets nothing: SinewException with
        /// SINEW_RESULT_BUFFER_TOO_SMALL. Use ParticleCount to size it.
        /// </summary>
        public int ReadPositions(SinewBodyId body, void* destination, int capacity)
        {
            uint count;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_read_positions(w, body, (SinewVec3*)destination, Count(capacity), &count)); }
            finally { Release(); }
            return (int)count;
        }

        public int ReadPositions(SinewBodyId body, SinewVec3[] destination)
        {
            fixed (SinewVec3* p = destination)
            {
                return ReadPositions(body, p, destination.Length);
            }
        }

        /// <summary>Velocities (m/s), with ReadPositions' protocol.</summary>
        public int ReadVelocities(SinewBodyId body, void* destination, int capacity)
        {
            uint count;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_read_velocities(w, body, (SinewVec3*)destination, Count(capacity), &count)); }
            finally { Release(); }
            return (int)count;
        }

        public int ReadVelocities(SinewBodyId body, SinewVec3[] destination)
        {
            fixed (SinewVec3* p = destination)
            {
                return ReadVelocities(body, p, destination.Length);
            }
        }

        /// <summary>Whether the body (with everything joined to it) is asleep.</summary>
        public bool IsSleeping(SinewBodyId body)
        {
            uint sleeping;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_is_sleeping(w, body, &sleeping)); }
            finally { Release(); }
            return sleeping != 0;
        }

        /// <summary>Puts the body to sleep now (velocities become zero) or wakes it.</summary>
        public void SetSleeping(SinewBodyId body, bool sleeping)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_set_sleeping(w, body, sleeping ? 1u : 0u)); }
            finally { Release(); }
        }

        /// <summary>
        /// The world-space box around the body's particles, grown by their
        /// radius (a cloth's thickness): the mesh's culling bounds.
        /// </summary>
        public void GetBounds(SinewBodyId body, out SinewVec3 min, out SinewVec3 max)
        {
            SinewVec3 lo, hi;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_get_bounds(w, body, &lo, &hi)); }
            finally { Release(); }
            min = lo;
            max = hi;
        }

        // ---- materials, filters, collision sticks ---------------------------

        /// <summary>
        /// Gives a body its own surface: each collider's coefficients then meet
        /// it by that collider's combine rule (material.combine is ignored).
        /// </summary>
        public void SetBodyMaterial(SinewBodyId body, SinewMaterial material)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_set_material(w, body, &material)); }
            finally { Release(); }
        }

        /// <summary>Removes a body's own surface: it takes each collider's coefficients as they are (the default).</summary>
        public void ClearBodyMaterial(SinewBodyId body)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_set_material(w, body, null)); }
            finally { Release(); }
        }

        /// <summary>
        /// Puts a body on the layer bits and lets it collide with colliders on
        /// the mask bits (a collider's own mask must hold a layer of the body
        /// too). Default: Native.SINEW_LAYER_DEFAULT, Native.SINEW_LAYER_ALL.
        /// Wakes the body.
        /// </summary>
        public void SetCollisionFilter(SinewBodyId body, uint layer, uint mask)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_set_collision_filter(w, body, layer, mask)); }
            finally { Release(); }
        }

        /// <summary>
        /// Lets a body pass through chosen bones of a ragdoll (indices in its
        /// bone order) while it still collides with the ragdoll's other bones:
        /// a cape joined to the shoulders ignores them and is kept off the back
        /// by the rest. Replaces the bones of that ragdoll ignored before; an
        /// empty array clears them. Wakes both bodies.
        /// </summary>
        public void SetIgnoredBones(SinewBodyId body, SinewBodyId ragdoll, uint[] bones)
        {
            if (bones == null) throw new ArgumentNullException("bones");
            SinewWorld* w = Acquire();
            try
            {
                fixed (uint* p = bones)
                    SinewException.Check(Native.sinew_body_set_ignored_bones(w, body, ragdoll, p, (uint)bones.Length));
            }
            finally { Release(); }
        }

        /// <summary>
        /// Capsules between two particles each that collide with colliders
        /// along their whole length (a rope across a thin bar). All are checked
        /// before any is added.
        /// </summary>
        public void AddCollisionSticks(SinewBodyId body, SinewCollisionStick* sticks, int count)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_add_collision_sticks(w, body, sticks, Count(count))); }
            finally { Release(); }
        }

        public void AddCollisionSticks(SinewBodyId body, SinewCollisionStick[] sticks)
        {
            if (sticks == null) throw new ArgumentNullException("sticks");
            fixed (SinewCollisionStick* p = sticks)
            {
                AddCollisionSticks(body, p, sticks.Length);
            }
        }

        // ---- contacts and queries ---------------------------------------------

        /// <summary>How many particles touched a collider in the last step.</summary>
        public int ContactCount()
        {
            uint count;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_read_contacts(w, null, 0, &count)); }
            finally { Release(); }
            return (int)count;
        }

        /// <summary>
        /// The contacts of the last step (one per particle that touched a
        /// collider, body order then particle order) into capacity slots;
        /// returns their count. A too small destination gets nothing:
        /// SinewException with SINEW_RESULT_BUFFER_TOO_SMALL. Poll it after
        /// Step (impact sounds: SinewContact.speed).
        /// </summary>
        public int ReadContacts(SinewContact* destination, int capacity)
        {
            uint count;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_read_contacts(w, destination, Count(capacity), &count)); }
            finally { Release(); }
            return (int)count;
        }

        public int ReadContacts(SinewContact[] destination)
        {
            if (destination == null) throw new ArgumentNullException("destination");
            fixed (SinewContact* p = destination)
            {
                return ReadContacts(p, destination.Length);
            }
        }

        /// <summary>Every contact of the last step, in a new array.</summary>
        public SinewContact[] ReadContacts()
        {
            SinewWorld* w = Acquire();
            try
            {
                uint count;
                SinewException.Check(Native.sinew_world_read_contacts(w, null, 0, &count));
                while (true)
                {
                    var contacts = new SinewContact[count];
                    SinewResult result;
                    fixed (SinewContact* p = contacts)
                    {
                        result = Native.sinew_world_read_contacts(w, p, count, &count);
                    }
                    // A step on another thread in between: count is the new one.
                    if (result == SinewResult.SINEW_RESULT_BUFFER_TOO_SMALL) continue;
                    SinewException.Check(result);
                    if (count == contacts.Length) return contacts;
                    Array.Resize(ref contacts, (int)count);
                    return contacts;
                }
            }
            finally { Release(); }
        }

        /// <summary>
        /// Casts a ray against the bodies on a layer in mask (particles as
        /// spheres of their radius, collision sticks, cloth triangles): the
        /// nearest hit within maxDistance, with the particles and weights that
        /// carry it (for ApplyHitImpulse). A miss is not an error: hit.hit is 0.
        /// </summary>
        public SinewRayHit Raycast(SinewVec3 origin, SinewVec3 direction, float maxDistance = float.PositiveInfinity,
                                   uint mask = Native.SINEW_LAYER_ALL)
        {
            SinewRayHit hit;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_raycast(w, origin, direction, maxDistance, mask, &hit)); }
            finally { Release(); }
            return hit;
        }

        /// <summary>
        /// Casts a ray against the colliders on a layer in mask, where they are
        /// now; hit.hit is 0 on a miss.
        /// </summary>
        public SinewColliderHit RaycastColliders(SinewVec3 origin, SinewVec3 direction,
                                                 float maxDistance = float.PositiveInfinity,
                                                 uint mask = Native.SINEW_LAYER_ALL)
        {
            SinewColliderHit hit;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_raycast_colliders(w, origin, direction, maxDistance, mask, &hit)); }
            finally { Release(); }
            return hit;
        }

        /// <summary>
        /// The particle nearest point within maxDistance among bodies on a
        /// layer in mask (picking); hit.hit is 0 when none is that close.
        /// </summary>
        public SinewParticleHit NearestParticle(SinewVec3 point, float maxDistance = float.PositiveInfinity,
                                                uint mask = Native.SINEW_LAYER_ALL)
        {
            SinewParticleHit hit;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_nearest_particle(w, point, maxDistance, mask, &hit)); }
            finally { Release(); }
            return hit;
        }

        /// <summary>
        /// An impulse (N s) at a Raycast hit: spread over its particles by
        /// their weights, so the body's momentum grows by impulse. Wakes it.
        /// </summary>
        public void ApplyHitImpulse(SinewRayHit hit, SinewVec3 impulse)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_apply_hit_impulse(w, &hit, impulse)); }
            finally { Release(); }
        }

        // ---- cloth ----------------------------------------------------------

        /// <summary>Default grid settings, to change and pass to CreateClothGrid.</summary>
        public static SinewClothGridDef DefaultClothGridDef()
        {
            return Native.sinew_default_cloth_grid_def();
        }

        /// <summary>Default mesh settings (arrays null, counts 0), for CreateCloth.</summary>
        public static SinewClothMeshDef DefaultClothMeshDef()
        {
            return Native.sinew_default_cloth_mesh_def();
        }

        /// <summary>The default bone: a free ball joint, 1 kg, 5 cm thick.</summary>
        public static SinewBoneDef DefaultBoneDef()
        {
            return Native.sinew_default_bone_def();
        }

        /// <summary>
        /// A ragdoll from a skeleton: one bone def per bone, a parent before
        /// its children, the root first; names (may be null, or null entries)
        /// are copied as UTF-8 for FindBone. The defs' own name pointers are
        /// replaced.
        /// </summary>
        public SinewBodyId CreateRagdoll(SinewBoneDef[] bones, string[] names = null)
        {
            SinewBodyId id = default(SinewBodyId);
            RagdollDefs.With(bones, names, def =>
            {
                SinewBodyId made;
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_ragdoll_create(w, def, &made)); }
                finally { Release(); }
                id = made;
            });
            return id;
        }

        /// <summary>
        /// A ragdoll of a skeleton, its rest pose moved by at (a bone at rest
        /// transform (x, q) starts at (at.position + at.rotation x,
        /// at.rotation q)). It shares the skeleton with every other ragdoll of
        /// it and keeps it alive.
        /// </summary>
        public SinewBodyId CreateRagdoll(Skeleton skeleton, SinewTransform at)
        {
            if (skeleton == null) throw new ArgumentNullException("skeleton");
            SinewBodyId id;
            SinewSkeleton* s = skeleton.Acquire();
            try
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_ragdoll_create_from_skeleton(w, s, at, &id)); }
                finally { Release(); }
            }
            finally { skeleton.Release(); }
            return id;
        }

        /// <summary>The skeleton a ragdoll is made of, to make more of it (dispose it when done).</summary>
        public Skeleton RagdollSkeleton(SinewBodyId ragdoll)
        {
            SinewSkeleton* raw = null;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_ragdoll_get_skeleton(w, ragdoll, &raw)); }
            finally { Release(); }
            return new Skeleton(raw);
        }

        /// <summary>
        /// The 17-bone humanoid preset (order and names in sinew.h: pelvis,
        /// spine, chest, neck, head, upper/lower arm and hand left then right,
        /// upper/lower leg and foot left then right), its feet on at (between
        /// them), height metres tall, facing at's +Z; its root bone is the
        /// pelvis.
        /// </summary>
        public SinewBodyId CreateHumanoid(SinewTransform at, float height)
        {
            SinewBodyId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_ragdoll_create_humanoid(w, at, height, &id)); }
            finally { Release(); }
            return id;
        }

        /// <summary>Number of bones of a ragdoll.</summary>
        public int RagdollBoneCount(SinewBodyId ragdoll)
        {
            uint count;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_ragdoll_bone_count(w, ragdoll, &count)); }
            finally { Release(); }
            return (int)count;
        }

        /// <summary>
        /// Each bone's world transform (head and frame, bone order) into
        /// destination; returns the bone count (ReadPositions' protocol).
        /// </summary>
        public int ReadBones(SinewBodyId ragdoll, SinewTransform[] destination)
        {
            if (destination == null) throw new ArgumentNullException("destination");
            uint count;
            fixed (SinewTransform* p = destination)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_ragdoll_read_bones(w, ragdoll, p, Count(destination.Length), &count)); }
                finally { Release(); }
            }
            return (int)count;
        }

        /// <summary>
        /// Each bone's shape (parent, head and tail particle, rest length, radius,
        /// mass; bone order) into destination, for drawing its capsule from head to
        /// tail; returns the bone count (ReadPositions' protocol).
        /// </summary>
        public int ReadBoneShapes(SinewBodyId ragdoll, SinewBoneShape[] destination)
        {
            if (destination == null) throw new ArgumentNullException("destination");
            uint count;
            fixed (SinewBoneShape* p = destination)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_ragdoll_read_bone_shapes(w, ragdoll, p, Count(destination.Length), &count)); }
                finally { Release(); }
            }
            return (int)count;
        }

        /// <summary>The index of the first bone called name; SinewException when none is.</summary>
        public int FindBone(SinewBodyId ragdoll, string name)
        {
            if (name == null) throw new ArgumentNullException("name");
            byte[] utf8 = System.Text.Encoding.UTF8.GetBytes(name + "\0");
            uint bone;
            fixed (byte* p = utf8)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_ragdoll_find_bone(w, ragdoll, p, &bone)); }
                finally { Release(); }
            }
            return (int)bone;
        }

        /// <summary>
        /// Teleports a ragdoll to a pose (one transform per bone); with
        /// previous (the pose dt seconds earlier, e.g. the animation's last
        /// frame) it keeps the animation's motion.
        /// </summary>
        public void SetRagdollPose(SinewBodyId ragdoll, SinewTransform[] bones, SinewTransform[] previous = null, float dt = 0.0f)
        {
            if (bones == null) throw new ArgumentNullException("bones");
            if (previous != null && previous.Length != bones.Length)
                throw new ArgumentException("previous must be null or as long as bones");
            fixed (SinewTransform* now = bones)
            fixed (SinewTransform* before = previous)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_ragdoll_set_pose(w, ragdoll, now, before, Count(bones.Length), dt)); }
                finally { Release(); }
            }
        }

        /// <summary>An impulse (N s) at a world point of a bone: a shot, a kick.</summary>
        public void ApplyBoneImpulse(SinewBodyId ragdoll, int bone, SinewVec3 point, SinewVec3 impulse)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_ragdoll_apply_impulse(w, ragdoll, Count(bone), point, impulse)); }
            finally { Release(); }
        }

        /// <summary>
        /// Motors: the world-space target pose, one transform per bone, as
        /// the animation outputs it each frame. Motors drive each bone
        /// towards it with a limited torque; physics keeps the last word.
        /// </summary>
        public void SetRagdollMotorTargets(SinewBodyId ragdoll, SinewTransform[] bones)
        {
            if (bones == null) throw new ArgumentNullException("bones");
            fixed (SinewTransform* p = bones)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_ragdoll_set_motor_targets(w, ragdoll, p, Count(bones.Length))); }
                finally { Release(); }
            }
        }

        /// <summary>
        /// Motors: the target pose in the animation's local space (each bone
        /// in its parent's frame, the root in world space).
        /// </summary>
        public void SetRagdollMotorTargetsLocal(SinewBodyId ragdoll, SinewTransform[] bones)
        {
            if (bones == null) throw new ArgumentNullException("bones");
            fixed (SinewTransform* p = bones)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_ragdoll_set_motor_targets_local(w, ragdoll, p, Count(bones.Length))); }
                finally { Release(); }
            }
        }

        /// <summary>Every bone's motor: strength 0 (limp) to 1 (follows the pose), maxForce in newtons (0 = unlimited).</summary>
        public void SetRagdollMotorStrength(SinewBodyId ragdoll, float strength, float maxForce = 0.0f)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_ragdoll_set_motor_strength(w, ragdoll, strength, maxForce)); }
            finally { Release(); }
        }

        /// <summary>One bone's motor: strength, max force (N, the root's position) and max torque (N m); 0 = unlimited.</summary>
        public void SetRagdollBoneMotor(SinewBodyId ragdoll, int bone, float strength, float maxForce, float maxTorque)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_ragdoll_set_bone_motor(w, ragdoll, Count(bone), strength, maxForce, maxTorque)); }
            finally { Release(); }
        }

        /// <summary>Root motion: whether the motors drive the root's position and orientation (on by default).</summary>
        public void SetRagdollRootMotion(SinewBodyId ragdoll, bool enabled)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_ragdoll_set_motor_root_motion(w, ragdoll, enabled ? 1u : 0u)); }
            finally { Release(); }
        }

        /// <summary>The default rigid body: a 1 kg, 1 m box carried by a tetrahedron.</summary>
        public static SinewRigidDef DefaultRigidDef()
        {
            return Native.sinew_default_rigid_def();
        }

        /// <summary>
        /// A rigid body (def from DefaultRigidDef). A convex shape's points
        /// (local space) are passed here; the def's own pointer is replaced.
        /// </summary>
        public SinewBodyId CreateRigid(SinewRigidDef def, SinewVec3[] convexPoints = null)
        {
            SinewBodyId id;
            SinewWorld* w = Acquire();
            try
            {
                fixed (SinewVec3* points = convexPoints)
                {
                    if (convexPoints != null)
                    {
                        def.points = points;
                        def.point_count = (uint)convexPoints.Length;
                    }
                    SinewException.Check(Native.sinew_rigid_create(w, &def, &id));
                }
            }
            finally { Release(); }
            return id;
        }

        /// <summary>Where a rigid body's shape frame is now.</summary>
        public SinewTransform RigidTransform(SinewBodyId body)
        {
            SinewTransform t;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_rigid_read_transform(w, body, &t)); }
            finally { Release(); }
            return t;
        }

        /// <summary>An impulse (N s) at a world point of a rigid body.</summary>
        public void ApplyRigidImpulse(SinewBodyId body, SinewVec3 point, SinewVec3 impulse)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_rigid_apply_impulse(w, body, point, impulse)); }
            finally { Release(); }
        }

        /// <summary>
        /// Pushes every free particle within radius of center away from it by
        /// strength / d^2 m/s; returns how many particles were pushed.
        /// </summary>
        public int Explode(SinewVec3 center, float strength, float radius)
        {
            uint n;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_explode(w, center, strength, radius, &n)); }
            finally { Release(); }
            return (int)n;
        }

        /// <summary>A rectangular cloth; particle r * columns + c is column c of row r.</summary>
        public SinewBodyId CreateClothGrid(SinewClothGridDef def)
        {
            SinewBodyId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_cloth_create_grid(w, &def, &id)); }
            finally { Release(); }
            return id;
        }

        /// <summary>
        /// A cloth from a triangle mesh whose arrays the def points to (pinned
        /// by the caller for the duration of the call; read during it only).
        /// </summary>
        public SinewBodyId CreateCloth(SinewClothMeshDef def)
        {
            SinewBodyId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_cloth_create(w, &def, &id)); }
            finally { Release(); }
            return id;
        }

        /// <summary>
        /// A cloth from managed arrays: vertices (12-byte vectors), triangles
        /// (3 indices each, counter-clockwise from the front, as Unity's
        /// Mesh.triangles), and optionally a pin mask (non-zero pins; one byte
        /// per vertex) and inverse masses (one per vertex). The def's own
        /// array fields are replaced.
        /// </summary>
        public SinewBodyId CreateCloth(SinewClothMeshDef def, SinewVec3[] vertices, int[] triangles,
                                       byte[] pinMask = null, float[] invMasses = null)
        {
            if (vertices == null) throw new ArgumentNullException("vertices");
            if (triangles == null) throw new ArgumentNullException("triangles");
            if (triangles.Length % 3 != 0) throw new ArgumentException("triangles: not a multiple of 3");
            if (pinMask != null && pinMask.Length != vertices.Length)
                throw new ArgumentException("pinMask must be null or one byte per vertex");
            if (invMasses != null && invMasses.Length != vertices.Length)
                throw new ArgumentException("invMasses must be null or one per vertex");
            fixed (SinewVec3* v = vertices)
            fixed (int* t = triangles)
            fixed (byte* pins = pinMask)
            fixed (float* m = invMasses)
            {
                def.vertices = vertices.Length == 0 ? null : v;
                def.vertex_count = (uint)vertices.Length;
                def.indices = triangles.Length == 0 ? null : (uint*)t;
                def.triangle_count = (uint)(triangles.Length / 3);
                def.pin_mask = pinMask == null || pinMask.Length == 0 ? null : pins;
                def.inv_masses = invMasses == null || invMasses.Length == 0 ? null : m;
                return CreateCloth(def);
            }
        }

        /// <summary>
        /// Unit vertex normals, one per particle (ReadPositions' order and
        /// protocol), into capacity 12-byte vectors; returns the particle count.
        /// </summary>
        public int ReadNormals(SinewBodyId body, void* destination, int capacity)
        {
            uint count;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_cloth_read_normals(w, body, (SinewVec3*)destination, Count(capacity), &count)); }
            finally { Release(); }
            return (int)count;
        }

        public int ReadNormals(SinewBodyId body, SinewVec3[] destination)
        {
            fixed (SinewVec3* p = destination)
            {
                return ReadNormals(body, p, destination.Length);
            }
        }

        /// <summary>The number of vertices the engine gave (before welding).</summary>
        public int ClothVertexCount(SinewBodyId body)
        {
            uint count;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_cloth_vertex_count(w, body, &count)); }
            finally { Release(); }
            return (int)count;
        }

        /// <summary>The particle of each engine vertex; returns the vertex count.</summary>
        public int ReadVertexMap(SinewBodyId body, uint* destination, int capacity)
        {
            uint count;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_cloth_read_vertex_map(w, body, destination, Count(capacity), &count)); }
            finally { Release(); }
            return (int)count;
        }

        public int ReadVertexMap(SinewBodyId body, uint[] destination)
        {
            fixed (uint* p = destination)
            {
                return ReadVertexMap(body, p, destination.Length);
            }
        }

        /// <summary>
        /// Writes each engine vertex's position and normal (3 floats each) at
        /// positions + k * positionStride and normals + k * normalStride bytes:
        /// stride 12 for separate NativeArray&lt;Vector3&gt; streams, or one
        /// interleaved buffer with normals = positions + 12 bytes and both
        /// strides 24. Either pointer may be null; no alignment is needed.
        /// capacity is in vertices; returns the vertex count. A too small
        /// capacity writes nothing (SINEW_RESULT_BUFFER_TOO_SMALL).
        /// </summary>
        public int WriteVertices(SinewBodyId body, void* positions, int positionStride, void* normals, int normalStride, int capacity)
        {
            uint count;
            SinewWorld* w = Acquire();
            try
            {
                SinewException.Check(Native.sinew_cloth_write_vertices(w, body,
                    (byte*)positions, new UIntPtr(Count(positionStride)),
                    (byte*)normals, new UIntPtr(Count(normalStride)),
                    Count(capacity), &count));
            }
            finally { Release(); }
            return (int)count;
        }

        /// <summary>Positions and normals per engine vertex into two arrays (either may be null).</summary>
        public int WriteVertices(SinewBodyId body, SinewVec3[] positions, SinewVec3[] normals)
        {
            if (positions != null && normals != null && positions.Length != normals.Length)
                throw new ArgumentException("positions and normals must be as long");
            int capacity = positions != null ? positions.Length : normals != null ? normals.Length : 0;
            fixed (SinewVec3* p = positions)
            fixed (SinewVec3* n = normals)
            {
                return WriteVertices(body, positions == null ? null : p, sizeof(SinewVec3),
                                     normals == null ? null : n, sizeof(SinewVec3), capacity);
            }
        }

        /// <summary>This cloth's own wind (m/s), added to the world's.</summary>
        public void SetClothWind(SinewBodyId body, SinewVec3 wind)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_cloth_set_wind(w, body, wind)); }
            finally { Release(); }
        }

        /// <summary>Drag and lift coefficients (>= 0).</summary>
        public void SetClothAerodynamics(SinewBodyId body, float drag, float lift)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_cloth_set_aerodynamics(w, body, drag, lift)); }
            finally { Release(); }
        }

        /// <summary>XPBD compliances (m/N, >= 0) of the edges, a grid's diagonals and the
        /// bending, live from the next step (as if the cloth were created with them).</summary>
        public void SetClothCompliance(SinewBodyId body, float stretch, float shear, float bend)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_cloth_set_compliance(w, body, stretch, shear, bend)); }
            finally { Release(); }
        }

        /// <summary>Self-collision, and collision with other cloths that also set it.</summary>
        public void SetClothCollision(SinewBodyId body, bool selfCollision, bool clothCollision)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_cloth_set_collision(w, body, selfCollision ? 1u : 0u, clothCollision ? 1u : 0u)); }
            finally { Release(); }
        }

        /// <summary>
        /// The skinned pose of a character cloth for the end of the next step,
        /// per engine vertex (before welding; count = ClothVertexCount): where
        /// the animation puts each vertex, and the normal pointing out of the
        /// body the cloth covers (12-byte vectors: SinewVec3 or Vector3). Max
        /// distances and backstops are measured from it. Call it every frame
        /// after animation; the first call starts the skin where it is.
        /// </summary>
        public void SetClothSkin(SinewBodyId body, SinewVec3* positions, SinewVec3* normals, int count)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_cloth_set_skin(w, body, positions, normals, Count(count))); }
            finally { Release(); }
        }

        public void SetClothSkin(SinewBodyId body, SinewVec3[] positions, SinewVec3[] normals)
        {
            if (positions == null) throw new ArgumentNullException("positions");
            if (normals == null) throw new ArgumentNullException("normals");
            if (positions.Length != normals.Length) throw new ArgumentException("positions and normals must be as long");
            fixed (SinewVec3* p = positions)
            fixed (SinewVec3* n = normals)
            {
                SetClothSkin(body, p, n, positions.Length);
            }
        }

        /// <summary>
        /// Per engine vertex: how far (metres, &gt;= 0; float.PositiveInfinity =
        /// no limit; 0 = skinned rigidly) a particle may move from its skinned
        /// position, and how far behind the skinned surface it may go
        /// (backstops; null for none). Needs a skin (SetClothSkin) first;
        /// welded vertices take the smallest value.
        /// </summary>
        public void SetClothMaxDistances(SinewBodyId body, float* maxDistances, float* backstops, int count)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_cloth_set_max_distances(w, body, maxDistances, backstops, Count(count))); }
            finally { Release(); }
        }

        public void SetClothMaxDistances(SinewBodyId body, float[] maxDistances, float[] backstops = null)
        {
            if (maxDistances == null) throw new ArgumentNullException("maxDistances");
            if (backstops != null && backstops.Length != maxDistances.Length)
                throw new ArgumentException("backstops must be null or as long as maxDistances");
            fixed (float* m = maxDistances)
            fixed (float* b = backstops)
            {
                SetClothMaxDistances(body, m, backstops == null ? null : b, maxDistances.Length);
            }
        }

        // ---- joints ---------------------------------------------------------

        /// <summary>
        /// Joins particleA of bodyA to particleB of bodyB, two-way. restLength
        /// &lt; 0 takes their current distance; compliance 0 is rigid.
        /// Destroying either body destroys the joint.
        /// </summary>
        public SinewJointId CreateJoint(SinewBodyId bodyA, int particleA, SinewBodyId bodyB, int particleB,
                                        float restLength = -1f, float compliance = 0f)
        {
            SinewJointId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_joint_create(w, bodyA, Count(particleA), bodyB, Count(particleB), restLength, compliance, &id)); }
            finally { Release(); }
            return id;
        }

        public void DestroyJoint(SinewJointId joint)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_joint_destroy(w, joint)); }
            finally { Release(); }
        }

        public bool IsValid(SinewJointId joint)
        {
            SinewWorld* w = Acquire();
            try { return Native.sinew_joint_is_valid(w, joint) != 0; }
            finally { Release(); }
        }

        // ---- colliders ------------------------------------------------------

        /// <summary>The solid half-space dot(normal, x) &lt; offset.</summary>
        public SinewColliderId CreatePlane(SinewVec3 normal, float offset, float friction)
        {
            SinewColliderId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_create_plane(w, normal, offset, friction, &id)); }
            finally { Release(); }
            return id;
        }

        public SinewColliderId CreateSphere(SinewVec3 center, float radius, float friction)
        {
            SinewColliderId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_create_sphere(w, center, radius, friction, &id)); }
            finally { Release(); }
            return id;
        }

        public SinewColliderId CreateBox(SinewTransform transform, SinewVec3 halfExtents, float friction)
        {
            SinewColliderId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_create_box(w, transform, halfExtents, friction, &id)); }
            finally { Release(); }
            return id;
        }

        public SinewColliderId CreateCapsule(SinewVec3 a, SinewVec3 b, float radius, float friction)
        {
            SinewColliderId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_create_capsule(w, a, b, radius, friction, &id)); }
            finally { Release(); }
            return id;
        }

        /// <summary>
        /// The default collider def: a 1 m box at the origin, friction 0.5
        /// (static and dynamic), no bounce, SINEW_COMBINE_AVERAGE, on
        /// SINEW_LAYER_DEFAULT colliding with every layer.
        /// </summary>
        public static SinewColliderDef DefaultColliderDef()
        {
            return Native.sinew_default_collider_def();
        }

        /// <summary>
        /// A collider of any shape with its material and filter (def from
        /// DefaultColliderDef). The arrays the def points to (points, indices,
        /// heights, children, and the children's own) must stay pinned for the
        /// call, which reads them only; the overloads below pin managed arrays.
        /// </summary>
        public SinewColliderId CreateCollider(SinewColliderDef def)
        {
            SinewColliderId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_create(w, &def, &id)); }
            finally { Release(); }
            return id;
        }

        /// <summary>
        /// A static, two-sided triangle mesh: vertices in the def's frame and 3
        /// indices per triangle (Unity's Mesh.vertices and Mesh.triangles).
        /// The def's shape and array fields are replaced.
        /// </summary>
        public SinewColliderId CreateMesh(SinewColliderDef def, SinewVec3[] points, int[] triangles)
        {
            if (points == null) throw new ArgumentNullException("points");
            if (triangles == null) throw new ArgumentNullException("triangles");
            fixed (SinewVec3* p = points)
            fixed (int* t = triangles)
            {
                def.shape = Native.SINEW_SHAPE_MESH;
                def.points = p;
                def.point_count = (uint)points.Length;
                def.indices = (uint*)t;
                def.index_count = (uint)triangles.Length;
                return CreateCollider(def);
            }
        }

        /// <summary>
        /// A heightfield solid below its surface: columns x rows heights,
        /// row-major, vertex (c, r) at (c * def.cell_size_x,
        /// heights[r * columns + c], r * def.cell_size_z) of the def's frame.
        /// The def's shape and heightfield fields are replaced.
        /// </summary>
        public SinewColliderId CreateHeightfield(SinewColliderDef def, int columns, int rows, float[] heights)
        {
            if (heights == null) throw new ArgumentNullException("heights");
            if ((long)Count(columns) * Count(rows) != heights.Length)
                throw new ArgumentException("heights must hold columns * rows values");
            fixed (float* h = heights)
            {
                def.shape = Native.SINEW_SHAPE_HEIGHTFIELD;
                def.columns = (uint)columns;
                def.rows = (uint)rows;
                def.heights = h;
                return CreateCollider(def);
            }
        }

        /// <summary>The convex hull of 4 to 256 points in the def's frame.</summary>
        public SinewColliderId CreateConvex(SinewColliderDef def, SinewVec3[] points)
        {
            if (points == null) throw new ArgumentNullException("points");
            fixed (SinewVec3* p = points)
            {
                def.shape = Native.SINEW_SHAPE_CONVEX;
                def.points = p;
                def.point_count = (uint)points.Length;
                return CreateCollider(def);
            }
        }

        /// <summary>
        /// A compound: parts of other shapes (defs from DefaultColliderDef,
        /// transforms relative to the def's frame; a part's own arrays must be
        /// pinned by the caller). The def's material and filter apply to all.
        /// </summary>
        public SinewColliderId CreateCompound(SinewColliderDef def, SinewColliderDef[] children)
        {
            if (children == null) throw new ArgumentNullException("children");
            fixed (SinewColliderDef* c = children)
            {
                def.shape = Native.SINEW_SHAPE_COMPOUND;
                def.children = c;
                def.child_count = (uint)children.Length;
                return CreateCollider(def);
            }
        }

        /// <summary>Changes a collider's surface: friction, restitution, combine rule.</summary>
        public void SetColliderMaterial(SinewColliderId collider, SinewMaterial material)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_set_material(w, collider, material)); }
            finally { Release(); }
        }

        public SinewMaterial GetColliderMaterial(SinewColliderId collider)
        {
            SinewMaterial material;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_get_material(w, collider, &material)); }
            finally { Release(); }
            return material;
        }

        /// <summary>
        /// Puts a collider on the layer bits, colliding with bodies on the mask
        /// bits (0 collides with nothing; rays still see its layer).
        /// </summary>
        public void SetColliderFilter(SinewColliderId collider, uint layer, uint mask)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_set_filter(w, collider, layer, mask)); }
            finally { Release(); }
        }

        /// <summary>Moves a collider's frame (kinematic colliders, every frame).</summary>
        public void SetColliderTransform(SinewColliderId collider, SinewTransform transform)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_set_transform(w, collider, transform)); }
            finally { Release(); }
        }

        public SinewTransform GetColliderTransform(SinewColliderId collider)
        {
            SinewTransform transform;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_get_transform(w, collider, &transform)); }
            finally { Release(); }
            return transform;
        }

        // ---- double precision (the _d calls) -------------------------------
        // For large worlds (a 10 km level, or no floating origin): the same
        // calls with world positions in double precision, exact however far
        // from the origin (an f32 10 km out is rounded to 1 mm).

        /// <summary>CreateParticles with double-precision positions.</summary>
        public SinewBodyId CreateParticlesD(SinewVec3d[] positions, float[] invMasses = null)
        {
            if (positions == null) throw new ArgumentNullException("positions");
            if (invMasses != null && invMasses.Length != positions.Length)
                throw new ArgumentException("one inverse mass per position", "invMasses");
            SinewBodyId id;
            fixed (SinewVec3d* p = positions)
            fixed (float* m = invMasses)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_body_create_particles_d(w, p, m, Count(positions.Length), &id)); }
                finally { Release(); }
            }
            return id;
        }

        /// <summary>SetPositions with double-precision positions.</summary>
        public void SetPositionsD(SinewBodyId body, int first, SinewVec3d[] positions)
        {
            if (positions == null) throw new ArgumentNullException("positions");
            fixed (SinewVec3d* p = positions)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_body_set_positions_d(w, body, Count(first), p, Count(positions.Length))); }
                finally { Release(); }
            }
        }

        /// <summary>ReadPositions with double-precision positions (exact).</summary>
        public int ReadPositionsD(SinewBodyId body, SinewVec3d[] destination)
        {
            if (destination == null) throw new ArgumentNullException("destination");
            uint count;
            fixed (SinewVec3d* p = destination)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_body_read_positions_d(w, body, p, Count(destination.Length), &count)); }
                finally { Release(); }
            }
            return (int)count;
        }

        /// <summary>SetTargets with double-precision positions.</summary>
        public void SetTargetsD(SinewBodyId body, SinewTargetd[] targets)
        {
            if (targets == null) throw new ArgumentNullException("targets");
            fixed (SinewTargetd* p = targets)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_body_set_targets_d(w, body, p, Count(targets.Length))); }
                finally { Release(); }
            }
        }

        /// <summary>AttachToFrame with the frame's position in double precision.</summary>
        public int AttachToFrameD(SinewBodyId body, int[] particles, SinewTransformd frame)
        {
            if (particles == null) throw new ArgumentNullException("particles");
            uint index;
            fixed (int* p = particles)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_body_attach_to_frame_d(w, body, (uint*)p, Count(particles.Length), frame, &index)); }
                finally { Release(); }
            }
            return (int)index;
        }

        /// <summary>SetFrame with the frame's position in double precision.</summary>
        public void SetFrameD(SinewBodyId body, int frame, SinewTransformd transform)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_set_frame_d(w, body, Count(frame), transform)); }
            finally { Release(); }
        }

        /// <summary>Teleport with double-precision transforms.</summary>
        public void TeleportD(SinewBodyId body, SinewTransformd from, SinewTransformd to, bool zeroVelocity)
        {
            SinewWorld* w = Acquire();
            uint mode = zeroVelocity ? Native.SINEW_TELEPORT_ZERO_VELOCITY : Native.SINEW_TELEPORT_KEEP_VELOCITY;
            try { SinewException.Check(Native.sinew_body_teleport_d(w, body, from, to, mode)); }
            finally { Release(); }
        }

        /// <summary>GetBounds in double precision.</summary>
        public void GetBoundsD(SinewBodyId body, out SinewVec3d min, out SinewVec3d max)
        {
            SinewVec3d lo, hi;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_get_bounds_d(w, body, &lo, &hi)); }
            finally { Release(); }
            min = lo;
            max = hi;
        }

        /// <summary>CreateHumanoid placed in double precision.</summary>
        public SinewBodyId CreateHumanoidD(SinewTransformd at, float height)
        {
            SinewBodyId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_ragdoll_create_humanoid_d(w, at, height, &id)); }
            finally { Release(); }
            return id;
        }

        /// <summary>CreateRagdoll from a skeleton, placed in double precision.</summary>
        public SinewBodyId CreateRagdollD(Skeleton skeleton, SinewTransformd at)
        {
            if (skeleton == null) throw new ArgumentNullException("skeleton");
            SinewBodyId id;
            SinewSkeleton* s = skeleton.Acquire();
            try
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_ragdoll_create_from_skeleton_d(w, s, at, &id)); }
                finally { Release(); }
            }
            finally { skeleton.Release(); }
            return id;
        }

        /// <summary>ReadBones with the heads' positions in double precision.</summary>
        public int ReadBonesD(SinewBodyId ragdoll, SinewTransformd[] destination)
        {
            if (destination == null) throw new ArgumentNullException("destination");
            uint count;
            fixed (SinewTransformd* p = destination)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_ragdoll_read_bones_d(w, ragdoll, p, Count(destination.Length), &count)); }
                finally { Release(); }
            }
            return (int)count;
        }

        /// <summary>SetMotorTargets with double-precision positions.</summary>
        public void SetMotorTargetsD(SinewBodyId ragdoll, SinewTransformd[] bones)
        {
            if (bones == null) throw new ArgumentNullException("bones");
            fixed (SinewTransformd* p = bones)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_ragdoll_set_motor_targets_d(w, ragdoll, p, Count(bones.Length))); }
                finally { Release(); }
            }
        }

        /// <summary>SetMotorTargetsLocal with double-precision positions (the root's in world space).</summary>
        public void SetMotorTargetsLocalD(SinewBodyId ragdoll, SinewTransformd[] bones)
        {
            if (bones == null) throw new ArgumentNullException("bones");
            fixed (SinewTransformd* p = bones)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_ragdoll_set_motor_targets_local_d(w, ragdoll, p, Count(bones.Length))); }
                finally { Release(); }
            }
        }

        /// <summary>CreateRigid (not convex) at a double-precision position; def.transform.position is ignored.</summary>
        public SinewBodyId CreateRigidD(SinewRigidDef def, SinewVec3d position)
        {
            SinewBodyId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_rigid_create_d(w, &def, position, &id)); }
            finally { Release(); }
            return id;
        }

        /// <summary>RigidTransform with the position in double precision.</summary>
        public SinewTransformd RigidTransformD(SinewBodyId body)
        {
            SinewTransformd t;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_rigid_read_transform_d(w, body, &t)); }
            finally { Release(); }
            return t;
        }

        /// <summary>CreateClothGrid at a double-precision position; def.transform.position is ignored.</summary>
        public SinewBodyId CreateClothGridD(SinewClothGridDef def, SinewVec3d position)
        {
            SinewBodyId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_cloth_create_grid_d(w, &def, position, &id)); }
            finally { Release(); }
            return id;
        }

        /// <summary>A plane dot(normal, x) &lt; offset whose frame starts at normal * offset.</summary>
        public SinewColliderId CreatePlaneD(SinewVec3 normal, double offset, float friction)
        {
            SinewColliderId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_create_plane_d(w, normal, offset, friction, &id)); }
            finally { Release(); }
            return id;
        }

        public SinewColliderId CreateSphereD(SinewVec3d center, float radius, float friction)
        {
            SinewColliderId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_create_sphere_d(w, center, radius, friction, &id)); }
            finally { Release(); }
            return id;
        }

        public SinewColliderId CreateBoxD(SinewTransformd transform, SinewVec3 halfExtents, float friction)
        {
            SinewColliderId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_create_box_d(w, transform, halfExtents, friction, &id)); }
            finally { Release(); }
            return id;
        }

        public SinewColliderId CreateCapsuleD(SinewVec3d a, SinewVec3d b, float radius, float friction)
        {
            SinewColliderId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_create_capsule_d(w, a, b, radius, friction, &id)); }
            finally { Release(); }
            return id;
        }

        /// <summary>CreateCollider at a double-precision position; def.transform.position is ignored.</summary>
        public SinewColliderId CreateColliderD(SinewColliderDef def, SinewVec3d position)
        {
            SinewColliderId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_create_d(w, &def, position, &id)); }
            finally { Release(); }
            return id;
        }

        public void SetColliderTransformD(SinewColliderId collider, SinewTransformd transform)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_set_transform_d(w, collider, transform)); }
            finally { Release(); }
        }

        public SinewTransformd GetColliderTransformD(SinewColliderId collider)
        {
            SinewTransformd transform;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_get_transform_d(w, collider, &transform)); }
            finally { Release(); }
            return transform;
        }

        /// <summary>SetRagdollPose with double-precision positions.</summary>
        public void SetRagdollPoseD(SinewBodyId ragdoll, SinewTransformd[] bones, SinewTransformd[] previous = null, float dt = 0.0f)
        {
            if (bones == null) throw new ArgumentNullException("bones");
            if (previous != null && previous.Length != bones.Length)
                throw new ArgumentException("previous must be null or as long as bones");
            fixed (SinewTransformd* now = bones)
            fixed (SinewTransformd* before = previous)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_ragdoll_set_pose_d(w, ragdoll, now, before, Count(bones.Length), dt)); }
                finally { Release(); }
            }
        }

        /// <summary>
        /// A ragdoll from a def (its bones array pinned by the caller for the
        /// call) whose rest transforms are relative to origin.
        /// </summary>
        public SinewBodyId CreateRagdollD(SinewRagdollDef def, SinewVec3d origin)
        {
            SinewBodyId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_ragdoll_create_d(w, &def, origin, &id)); }
            finally { Release(); }
            return id;
        }

        /// <summary>CreateCloth (a mesh def, its arrays pinned by the caller) at a double-precision position.</summary>
        public SinewBodyId CreateClothD(SinewClothMeshDef def, SinewVec3d position)
        {
            SinewBodyId id;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_cloth_create_d(w, &def, position, &id)); }
            finally { Release(); }
            return id;
        }

        /// <summary>SetClothSkin with the skinned positions in double precision.</summary>
        public void SetClothSkinD(SinewBodyId body, SinewVec3d[] positions, SinewVec3[] normals)
        {
            if (positions == null) throw new ArgumentNullException("positions");
            if (normals == null) throw new ArgumentNullException("normals");
            if (normals.Length != positions.Length) throw new ArgumentException("one normal per position", "normals");
            fixed (SinewVec3d* p = positions)
            fixed (SinewVec3* n = normals)
            {
                SinewWorld* w = Acquire();
                try { SinewException.Check(Native.sinew_cloth_set_skin_d(w, body, p, n, Count(positions.Length))); }
                finally { Release(); }
            }
        }

        /// <summary>ShiftOrigin with the offset in double precision.</summary>
        public void ShiftOriginD(SinewVec3d offset)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_shift_origin_d(w, offset)); }
            finally { Release(); }
        }

        // The _d queries and pushes: a query point is met in the frame of
        // what it meets, so a query 10 km out answers as at the origin, and
        // points come back exact.

        /// <summary>ReadContacts with each contact's point in double precision (exact).</summary>
        public int ReadContactsD(SinewContactd* destination, int capacity)
        {
            uint count;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_read_contacts_d(w, destination, Count(capacity), &count)); }
            finally { Release(); }
            return (int)count;
        }

        public int ReadContactsD(SinewContactd[] destination)
        {
            if (destination == null) throw new ArgumentNullException("destination");
            fixed (SinewContactd* p = destination)
            {
                return ReadContactsD(p, destination.Length);
            }
        }

        /// <summary>Every contact of the last step, its point in double precision, in a new array.</summary>
        public SinewContactd[] ReadContactsD()
        {
            SinewWorld* w = Acquire();
            try
            {
                uint count;
                SinewException.Check(Native.sinew_world_read_contacts_d(w, null, 0, &count));
                while (true)
                {
                    var contacts = new SinewContactd[count];
                    SinewResult result;
                    fixed (SinewContactd* p = contacts)
                    {
                        result = Native.sinew_world_read_contacts_d(w, p, count, &count);
                    }
                    // A step on another thread in between: count is the new one.
                    if (result == SinewResult.SINEW_RESULT_BUFFER_TOO_SMALL) continue;
                    SinewException.Check(result);
                    if (count == contacts.Length) return contacts;
                    Array.Resize(ref contacts, (int)count);
                    return contacts;
                }
            }
            finally { Release(); }
        }

        /// <summary>Raycast from an origin in double precision; the hit point too.</summary>
        public SinewRayHitd RaycastD(SinewVec3d origin, SinewVec3 direction, float maxDistance = float.PositiveInfinity,
                                     uint mask = Native.SINEW_LAYER_ALL)
        {
            SinewRayHitd hit;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_raycast_d(w, origin, direction, maxDistance, mask, &hit)); }
            finally { Release(); }
            return hit;
        }

        /// <summary>RaycastColliders from an origin in double precision; the hit point too.</summary>
        public SinewColliderHitd RaycastCollidersD(SinewVec3d origin, SinewVec3 direction,
                                                   float maxDistance = float.PositiveInfinity,
                                                   uint mask = Native.SINEW_LAYER_ALL)
        {
            SinewColliderHitd hit;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_raycast_colliders_d(w, origin, direction, maxDistance, mask, &hit)); }
            finally { Release(); }
            return hit;
        }

        /// <summary>NearestParticle to a point in double precision; the particle's exact place.</summary>
        public SinewParticleHitd NearestParticleD(SinewVec3d point, float maxDistance = float.PositiveInfinity,
                                                  uint mask = Native.SINEW_LAYER_ALL)
        {
            SinewParticleHitd hit;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_nearest_particle_d(w, point, maxDistance, mask, &hit)); }
            finally { Release(); }
            return hit;
        }

        /// <summary>ApplyHitImpulse for a RaycastD hit.</summary>
        public void ApplyHitImpulseD(SinewRayHitd hit, SinewVec3 impulse)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_body_apply_hit_impulse_d(w, &hit, impulse)); }
            finally { Release(); }
        }

        /// <summary>ApplyBoneImpulse at a point in double precision.</summary>
        public void ApplyBoneImpulseD(SinewBodyId ragdoll, int bone, SinewVec3d point, SinewVec3 impulse)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_ragdoll_apply_impulse_d(w, ragdoll, Count(bone), point, impulse)); }
            finally { Release(); }
        }

        /// <summary>ApplyRigidImpulse at a point in double precision.</summary>
        public void ApplyRigidImpulseD(SinewBodyId body, SinewVec3d point, SinewVec3 impulse)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_rigid_apply_impulse_d(w, body, point, impulse)); }
            finally { Release(); }
        }

        /// <summary>Explode about a centre in double precision; returns how many particles were pushed.</summary>
        public int ExplodeD(SinewVec3d center, float strength, float radius)
        {
            uint n;
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_world_explode_d(w, center, strength, radius, &n)); }
            finally { Release(); }
            return (int)n;
        }

        /// <summary>
        /// WriteVertices with positions in double precision (3 doubles each,
        /// exact; positionStride &gt;= 24) and normals in floats: interleaved,
        /// normals = positions + 24 bytes and both strides 36.
        /// </summary>
        public int WriteVerticesD(SinewBodyId body, void* positions, int positionStride, void* normals, int normalStride, int capacity)
        {
            uint count;
            SinewWorld* w = Acquire();
            try
            {
                SinewException.Check(Native.sinew_cloth_write_vertices_d(w, body,
                    (byte*)positions, new UIntPtr(Count(positionStride)),
                    (byte*)normals, new UIntPtr(Count(normalStride)),
                    Count(capacity), &count));
            }
            finally { Release(); }
            return (int)count;
        }

        /// <summary>Positions (double precision) and normals per engine vertex into two arrays (either may be null).</summary>
        public int WriteVerticesD(SinewBodyId body, SinewVec3d[] positions, SinewVec3[] normals)
        {
            if (positions != null && normals != null && positions.Length != normals.Length)
                throw new ArgumentException("positions and normals must be as long");
            int capacity = positions != null ? positions.Length : normals != null ? normals.Length : 0;
            fixed (SinewVec3d* p = positions)
            fixed (SinewVec3* n = normals)
            {
                return WriteVerticesD(body, positions == null ? null : p, sizeof(SinewVec3d),
                                      normals == null ? null : n, sizeof(SinewVec3), capacity);
            }
        }

        public bool IsValid(SinewColliderId collider)
        {
            SinewWorld* w = Acquire();
            try { return Native.sinew_collider_is_valid(w, collider) != 0; }
            finally { Release(); }
        }

        public void DestroyCollider(SinewColliderId collider)
        {
            SinewWorld* w = Acquire();
            try { SinewException.Check(Native.sinew_collider_destroy(w, collider)); }
            finally { Release(); }
        }

        static uint Count(int n)
        {
            if (n < 0) throw new ArgumentOutOfRangeException("count", "negative count " + n);
            return (uint)n;
        }
    }
}
