// Runs the Unity package's plain-C# layers (Runtime/Native + Runtime/Core)
// under Mono against the library cargo built. Compiled and run by
// tests/csharp_binding.rs, which passes the C struct sizes as arguments
// ("SinewVec3=12 ...") so the C# layouts are checked against Rust's.
using System;
using System.Runtime.InteropServices;
using Sinew;

static unsafe class BindingTest
{
    static int checks;
    static int failures;

    static void Check(bool ok, string what)
    {
        checks++;
        if (!ok)
        {
            failures++;
            Console.Error.WriteLine("check failed: " + what);
        }
    }

    // Runs an action that must throw SinewException with the given code and a message.
    static void ExpectCode(Action action, SinewResult want, string what)
    {
        checks++;
        try
        {
            action();
            failures++;
            Console.Error.WriteLine(what + ": no exception, expected " + want);
        }
        catch (SinewException e)
        {
            if (e.Result != want || string.IsNullOrEmpty(e.NativeMessage))
            {
                failures++;
                Console.Error.WriteLine(what + ": got " + e.Result + " (" + e.Message + "), expected " + want);
            }
        }
    }

    static SinewVec3 V(float x, float y, float z)
    {
        SinewVec3 v;
        v.x = x;
        v.y = y;
        v.z = z;
        return v;
    }

    static float Distance(SinewVec3 a, SinewVec3 b)
    {
        float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
        return (float)Math.Sqrt(dx * dx + dy * dy + dz * dz);
    }

    static int SizeOf(string name)
    {
        switch (name)
        {
            case "SinewVec3": return sizeof(SinewVec3);
            case "SinewQuat": return sizeof(SinewQuat);
            case "SinewTransform": return sizeof(SinewTransform);
            case "SinewBodyId": return sizeof(SinewBodyId);
            case "SinewColliderId": return sizeof(SinewColliderId);
            case "SinewDistanceConstraint": return sizeof(SinewDistanceConstraint);
            case "SinewTarget": return sizeof(SinewTarget);
            case "SinewWorldDef": return sizeof(SinewWorldDef);
            case "SinewResult": return sizeof(SinewResult);
            case "SinewJointId": return sizeof(SinewJointId);
            case "SinewVec3d": return sizeof(SinewVec3d);
            case "SinewTransformd": return sizeof(SinewTransformd);
            case "SinewTargetd": return sizeof(SinewTargetd);
            case "SinewClothGridDef": return sizeof(SinewClothGridDef);
            case "SinewClothMeshDef": return sizeof(SinewClothMeshDef);
            case "SinewMaterial": return sizeof(SinewMaterial);
            case "SinewColliderDef": return sizeof(SinewColliderDef);
            case "SinewCollisionStick": return sizeof(SinewCollisionStick);
            case "SinewContact": return sizeof(SinewContact);
            case "SinewRayHit": return sizeof(SinewRayHit);
            case "SinewColliderHit": return sizeof(SinewColliderHit);
            case "SinewParticleHit": return sizeof(SinewParticleHit);
            case "SinewContactd": return sizeof(SinewContactd);
            case "SinewRayHitd": return sizeof(SinewRayHitd);
            case "SinewColliderHitd": return sizeof(SinewColliderHitd);
            case "SinewParticleHitd": return sizeof(SinewParticleHitd);
            default: return -1;
        }
    }

    static int Main(string[] args)
    {
        // Layouts: C# sizeof (and Marshal's view) equal Rust's size_of.
        foreach (string arg in args)
        {
            string[] kv = arg.Split('=');
            int want = int.Parse(kv[1]);
            Check(SizeOf(kv[0]) == want, kv[0] + " is " + SizeOf(kv[0]) + " bytes in C#, " + want + " in C");
        }
        Check(Marshal.SizeOf(typeof(SinewWorldDef)) == sizeof(SinewWorldDef), "SinewWorldDef is blittable");
        Check(Marshal.SizeOf(typeof(SinewClothMeshDef)) == sizeof(SinewClothMeshDef), "SinewClothMeshDef (pointer fields) is blittable");

        Library.CheckAbi();
        Check(Library.AbiVersion == Native.SINEW_ABI_VERSION, "ABI version");
        Check(Library.ResultName(SinewResult.SINEW_RESULT_INVALID_ID) == "SINEW_RESULT_INVALID_ID", "result name");

        // Bad input straight through Native: NULL world, zero def.
        Check(Native.sinew_world_step(null, 1f / 60f) == SinewResult.SINEW_RESULT_NULL_ARGUMENT, "step(NULL)");
        Check(Library.LastErrorMessage().Contains("NULL"), "message after step(NULL): " + Library.LastErrorMessage());
        SinewWorldDef zero = default(SinewWorldDef);
        SinewWorld* raw = null;
        Check(Native.sinew_world_create(&zero, &raw) == SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "zero def refused");
        Check(raw == null, "no world written on failure");
        ExpectCode(() => new World(default(SinewWorldDef)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "new World(zero def)");

        using (World world = new World())
        {
            Check(world.GetDef().gravity.y == -9.81f, "default gravity");
            ExpectCode(() => world.Step(float.NaN), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "Step(NaN)");
            ExpectCode(() => world.SetGravity(V(float.NaN, 0, 0)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "NaN gravity");

            // A pinned pendulum: 1 m rigid stick, released horizontally.
            SinewBodyId pendulum = world.CreateParticles(new[] { V(0, 2, 0), V(1, 2, 0) }, new[] { 0f, 1f });
            Check(world.IsValid(pendulum) && world.ParticleCount(pendulum) == 2, "pendulum created");
            SinewDistanceConstraint stick;
            stick.a = 0;
            stick.b = 1;
            stick.rest_length = -1f;
            stick.compliance = 0f;
            world.AddDistanceConstraints(pendulum, new[] { stick });
            world.SetDistanceMethod(pendulum, Native.SINEW_DISTANCE_METHOD_EXACT);
            ExpectCode(() => world.SetDistanceMethod(pendulum, 42), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "method 42");
            ExpectCode(() => world.SetParticleRadius(pendulum, float.NaN), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "NaN radius");

            // A free particle dropped onto the top of a sphere.
            SinewColliderId ball = world.CreateSphere(V(5, 0, 0), 0.5f, 0.5f);
            Check(world.IsValid(ball), "sphere created");
            SinewBodyId drop = world.CreateParticles(new[] { V(5, 1.5f, 0) });

            SinewVec3[] now = new SinewVec3[2];
            float worst = 0f, lowest = 2f;
            for (int frame = 0; frame < 120; frame++)
            {
                world.Step(1f / 60f);
                Check(world.ReadPositions(pendulum, now) == 2, "read 2 positions");
                worst = Math.Max(worst, Math.Abs(Distance(now[0], now[1]) - 1f));
                lowest = Math.Min(lowest, now[1].y);
            }
            Console.WriteLine("pendulum: largest length error " + worst.ToString("E2") + " m, lowest bob y " + lowest.ToString("F3"));
            Check(worst < 1e-6f, "the pendulum keeps its length (" + worst + ")"); // measured 1.2e-7 (the bound was 1e-3)
            Check(now[0].x == 0f && now[0].y == 2f, "the pin stays");
            Check(lowest < 1.1f, "the bob swings down through the bottom (lowest y " + lowest + ")");

            SinewVec3[] top = new SinewVec3[1];
            world.ReadPositions(drop, top);
            Console.WriteLine("particle on the sphere: y = " + top[0].y.ToString("F4"));
            // Measured 6e-8 and 0 m off, 6e-8 outside (the bounds were 1e-2, 1e-3 and 1e-3).
            Check(Math.Abs(top[0].y - 0.5f) < 5e-7f && Math.Abs(top[0].x - 5f) < 2e-6f, "the particle rests on the sphere's top (y " + top[0].y + ")");
            Check(Distance(top[0], V(5, 0, 0)) >= 0.5f - 5e-7f, "the particle is not inside the sphere");

            // Zero-copy readback into unmanaged memory, as into a NativeArray<Vector3>.
            IntPtr block = Marshal.AllocHGlobal(2 * 12);
            try
            {
                Check(world.ReadPositions(pendulum, (void*)block, 2) == 2, "pointer readback count");
                float* f = (float*)block;
                Check(f[3] == now[1].x && f[4] == now[1].y && f[5] == now[1].z, "pointer readback = array readback, 12-byte stride");
                ExpectCode(() => world.ReadPositions(pendulum, (void*)block, 1), SinewResult.SINEW_RESULT_BUFFER_TOO_SMALL, "1-slot buffer");
            }
            finally
            {
                Marshal.FreeHGlobal(block);
            }
            SinewVec3[] velocities = new SinewVec3[2];
            Check(world.ReadVelocities(pendulum, velocities) == 2 && velocities[0].y == 0f, "velocities read, pin at rest");

            // Teleport, shove, masses, targets.
            world.SetPositions(drop, 0, new[] { V(8, 3, 0) });
            world.ReadPositions(drop, top);
            Check(top[0].x == 8f && top[0].y == 3f, "teleported");
            ExpectCode(() => world.SetPositions(drop, 1, new[] { V(0, 0, 0) }), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "range outside the body");
            SinewTransform here = new SinewTransform { position = V(0, 0, 0), rotation = new SinewQuat { w = 1 } };
            SinewTransform away = new SinewTransform { position = V(0, 0, 5), rotation = new SinewQuat { w = 1 } };
            world.Teleport(drop, here, away, true);
            world.ReadPositions(drop, top);
            Check(Math.Abs(top[0].x - 8f) < 4e-6f && Math.Abs(top[0].z - 5f) < 4e-6f, "whole body teleported"); // measured 0; 4 ulp at 8 m
            world.Teleport(drop, away, here, false);
            world.ReadPositions(drop, top);
            Check(Math.Abs(top[0].z) < 4e-6f, "teleported back"); // measured 0
            world.MoveParticles(drop, 0, new[] { V(0.5f, 0, 0) });
            world.ReadPositions(drop, top);
            Check(Math.Abs(top[0].x - 8.5f) < 1e-6f, "moved");
            world.SetInvMasses(drop, 0, new[] { 2f });
            ExpectCode(() => world.SetInvMasses(drop, 0, new[] { -1f }), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "negative inverse mass");
            SinewTarget hold;
            hold.particle = 0;
            hold.position = V(8, 4, 0);
            hold.compliance = 0f;
            hold.max_force = 0f;
            world.SetTargets(drop, new[] { hold });
            for (int frame = 0; frame < 10; frame++) world.Step(1f / 60f);
            world.ReadPositions(drop, top);
            Check(Distance(top[0], hold.position) < 4e-6f, "the target holds the particle (" + Distance(top[0], hold.position) + " m off)"); // measured 0; 4 ulp at 8 m
            world.ClearTargets(drop);

            // Colliders.
            SinewTransform boxAt;
            boxAt.position = V(0, -3, 0);
            boxAt.rotation.x = 0; boxAt.rotation.y = 0; boxAt.rotation.z = 0; boxAt.rotation.w = 1;
            SinewColliderId box = world.CreateBox(boxAt, V(1, 0.1f, 1), 0.5f);
            SinewColliderId capsule = world.CreateCapsule(V(-3, 0, 0), V(-3, 1, 0), 0.2f, 0.5f);
            SinewColliderId floor = world.CreatePlane(V(0, 1, 0), -10f, 0.5f);
            ExpectCode(() => world.CreateSphere(V(0, 0, 0), -1f, 0.5f), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "negative radius");
            boxAt.position = V(0, -4, 0);
            world.SetColliderTransform(box, boxAt);
            Check(world.GetColliderTransform(box).position.y == -4f, "collider moved");
            Check(world.IsValid(capsule) && world.IsValid(floor), "capsule and plane");
            world.DestroyCollider(ball);
            Check(!world.IsValid(ball), "destroyed collider is invalid");
            ExpectCode(() => world.DestroyCollider(ball), SinewResult.SINEW_RESULT_INVALID_ID, "destroy a stale collider");

            // Snapshots replay bit for bit.
            byte[] image = world.Snapshot();
            Check(image.Length > 0 && image.Length == world.Snapshot(null, 0), "snapshot size");
            for (int frame = 0; frame < 30; frame++) world.Step(1f / 60f);
            ulong after = world.StateHash();
            world.Restore(image);
            for (int frame = 0; frame < 30; frame++) world.Step(1f / 60f);
            Check(world.StateHash() == after, "restore + same steps = same hash");
            Check(world.RecoveryCount() == 0, "a healthy world never needed a recovery");
            world.SetProfiling(true);
            world.Step(1f / 60f);
            Check(world.Profile().step > 0f, "a profiled step has a time");
            world.SetProfiling(false);
            ExpectCode(() => world.Restore(new byte[] { 1, 2, 3, 4 }), SinewResult.SINEW_RESULT_INCOMPATIBLE, "garbage snapshot");

            // Stale ids.
            world.DestroyBody(drop);
            Check(!world.IsValid(drop), "destroyed body is invalid");
            ExpectCode(() => world.ParticleCount(drop), SinewResult.SINEW_RESULT_INVALID_ID, "stale body id");
            ExpectCode(() => world.ReadPositions(drop, top), SinewResult.SINEW_RESULT_INVALID_ID, "read a stale body");
            using (World other = new World())
            {
                Check(!other.IsValid(pendulum), "an id of another world is invalid there");
                ExpectCode(() => other.DestroyBody(pendulum), SinewResult.SINEW_RESULT_INVALID_ID, "foreign id");
            }
            Check(world.IsValid(pendulum), "the other world did not touch this one");

            world.Dispose();
            Check(world.IsDisposed, "disposed");
            bool threw = false;
            try { world.Step(1f / 60f); }
            catch (ObjectDisposedException) { threw = true; }
            Check(threw, "a disposed world throws ObjectDisposedException");
        }

        CheckCloth();
        CheckCharacter();
        CheckRagdoll();
        CheckRagdollRig();
        CheckRagdollMotors();
        CheckRigid();
        CheckShapes();
        CheckFar();

        // A world left to the finalizer is destroyed on the finalizer thread.
        MakeGarbage();
        GC.Collect();
        GC.WaitForPendingFinalizers();

        Console.WriteLine(checks + " checks, " + failures + " failed");
        if (failures == 0) Console.WriteLine("all checks passed");
        return failures == 0 ? 0 : 1;
    }

    static float Length(SinewVec3 v)
    {
        return (float)Math.Sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    }

    static bool Same(SinewVec3 a, SinewVec3 b)
    {
        return a.x == b.x && a.y == b.y && a.z == b.z;
    }

    // Ragdolls: the humanoid's rest pose back, names, pose, impulse, a skeleton.
    static void CheckRagdoll()
    {
        using (World world = new World())
        {
            SinewTransform root = new SinewTransform();
            root.rotation.w = 1f;
            ExpectCode(() => world.CreateHumanoid(root, -1f), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "negative height");
            SinewBodyId doll = world.CreateHumanoid(root, 1.8f);
            Check(world.RagdollBoneCount(doll) == 17, "17 bones");
            SinewTransform[] bones = new SinewTransform[17];
            Check(world.ReadBones(doll, bones) == 17, "read bones");
            // The rest pose comes back to ulps (tests/ragdoll.rs measures 2.7e-7 m).
            Check(Math.Abs(bones[0].position.y - 0.95f) < 2e-6f, "pelvis at its rest height");
            Check(world.FindBone(doll, "head") == 4, "head is bone 4");
            ExpectCode(() => world.FindBone(doll, "tail"), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "no tail");
            world.SetRagdollPose(doll, bones);
            ExpectCode(() => world.SetRagdollPose(doll, new SinewTransform[3]), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "short pose");
            int chest = world.FindBone(doll, "chest");
            SinewVec3 push = new SinewVec3();
            push.z = 30f;
            world.ApplyBoneImpulse(doll, chest, bones[chest].position, push);
            for (int frame = 0; frame < 10; frame++) world.Step(1f / 60f);
            world.ReadBones(doll, bones);
            Check(bones[chest].position.z > 0f, "the chest moved forward");

            // Motors hold the pose it stands in now.
            world.SetRagdollMotorTargets(doll, bones);
            ExpectCode(() => world.SetRagdollMotorTargets(doll, new SinewTransform[3]), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "short targets");
            world.SetRagdollMotorStrength(doll, 0.9f, 2000f);
            ExpectCode(() => world.SetRagdollMotorStrength(doll, 2f), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "strength above 1");
            world.SetRagdollBoneMotor(doll, 4, 0.5f, 0f, 30f);
            ExpectCode(() => world.SetRagdollBoneMotor(doll, 17, 0.5f, 0f, 30f), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "bone out of range");
            world.SetRagdollRootMotion(doll, false);
            world.SetRagdollRootMotion(doll, true);
            SinewTransform[] local = new SinewTransform[17];
            for (int b = 0; b < 17; b++) { local[b].position.y = 0.1f; local[b].rotation.w = 1f; }
            local[0] = bones[0];
            world.SetRagdollMotorTargetsLocal(doll, local);
            world.SetRagdollMotorTargets(doll, bones);
            for (int frame = 0; frame < 10; frame++) world.Step(1f / 60f);

            SinewBoneDef[] two = { World.DefaultBoneDef(), World.DefaultBoneDef() };
            two[0].length = 0.5f;
            two[1].parent = 0;
            two[1].rest.position.y = 0.5f;
            two[1].length = 0.5f;
            two[1].limit_type = Native.SINEW_LIMIT_HINGE;
            SinewBodyId arm = world.CreateRagdoll(two, new[] { "upper", "lower" });
            Check(world.FindBone(arm, "lower") == 1, "names copied");
            two[1].parent = 1;
            ExpectCode(() => world.CreateRagdoll(two), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "parent after child");
            ExpectCode(() => Skeleton.Create(two), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "a bad skeleton");
            two[1].parent = 0;
            using (Skeleton limb = Skeleton.Create(two, new[] { "upper", "lower" }))
            {
                Check(limb.BoneCount == 2, "a skeleton of two bones");
            }
            // A crowd of one skeleton, outliving its handle.
            ExpectCode(() => Skeleton.Humanoid(0f), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "zero height");
            SinewTransform at = new SinewTransform();
            at.rotation.w = 1f;
            at.position.x = -4f;
            SinewBodyId twin;
            using (Skeleton figure = Skeleton.Humanoid(1.6f))
            {
                Check(figure.BoneCount == 17, "17 bones");
                twin = world.CreateRagdoll(figure, at);
            }
            using (Skeleton armSkeleton = world.RagdollSkeleton(arm))
            {
                Check(armSkeleton.BoneCount == 2, "the arm's own skeleton");
            }
            using (Skeleton same = world.RagdollSkeleton(twin))
            {
                at.position.x = -6f;
                SinewBodyId other = world.CreateRagdoll(same, at);
                SinewTransform[] pose = new SinewTransform[17];
                Check(world.ReadBones(other, pose) == 17 && Math.Abs(pose[0].position.x + 6f) < 2e-6f, "placed at x = -6");
            }
        }
    }

    // Turns bones first..last of pose about the point `pivot` by q (an arm or a leg bending).
    static void Bend(SinewTransform[] pose, int first, int last, SinewVec3 pivot, SinewQuat q)
    {
        for (int b = first; b <= last; b++)
        {
            pose[b].position = PoseMath.Add(pivot, PoseMath.Rotate(q, PoseMath.Sub(pose[b].position, pivot)));
            pose[b].rotation = PoseMath.Normalize(PoseMath.Mul(q, pose[b].rotation));
        }
    }

    static float Degrees(float radians)
    {
        return radians * 180f / (float)Math.PI;
    }

    // RagdollRig (what SinewRagdoll does with an Animator's bones): a character in
    // a T-pose, 10 % bigger than the preset, with bone axes of its own; the preset
    // fitted to it, posed there and read back through the bind offsets gives the
    // character's bones again (no snap), and motors hold that pose.
    static void CheckRagdollRig()
    {
        using (World world = new World())
        {
            SinewTransform root;
            root.position = V(1f, 0f, 2f);
            root.rotation = PoseMath.AxisAngle(V(0f, 1f, 0f), 0.5f);
            SinewBodyId doll = world.CreateHumanoid(root, 1.8f);
            var rest = new SinewTransform[17];
            world.ReadBones(doll, rest);
            // The preset's left (_l) bones are at +X of its root: SinewRagdoll maps them to Unity's Right* bones.
            SinewVec3 side = PoseMath.Rotate(PoseMath.Inverse(root.rotation), PoseMath.Sub(rest[5].position, root.position));
            Check(side.x > 0.1f && rest[5].position.y > 1.3f, "upper_arm_l is on the preset's +X side (" + side.x + ")");

            // The character: arms out sideways (about the root's Z), 1.1 times the size, own bone axes.
            var character = (SinewTransform[])rest.Clone();
            SinewVec3 forward = PoseMath.Rotate(root.rotation, V(0f, 0f, 1f));
            Bend(character, 5, 7, rest[5].position, PoseMath.AxisAngle(forward, (float)Math.PI / 2f));
            Bend(character, 8, 10, rest[8].position, PoseMath.AxisAngle(forward, -(float)Math.PI / 2f));
            var engine = new SinewTransform[17];
            for (int b = 0; b < 17; b++)
            {
                SinewVec3 fromRoot = PoseMath.Sub(character[b].position, root.position);
                engine[b].position = PoseMath.Add(root.position, V(1.1f * fromRoot.x, 1.1f * fromRoot.y, 1.1f * fromRoot.z));
                SinewVec3 axis = V(b + 1f, 1f, 2f - b);
                float n = PoseMath.Length(axis);
                SinewQuat own = PoseMath.AxisAngle(V(axis.x / n, axis.y / n, axis.z / n), 0.3f * b + 0.2f);
                engine[b].rotation = PoseMath.Mul(character[b].rotation, own);
            }
            var present = new bool[17];
            for (int b = 0; b < 17; b++) present[b] = true;
            var posed = new SinewTransform[17];
            var rig = new RagdollRig(rest, engine, present, posed);
            // Each fitted bone points where the character's does.
            float worstAim = 0f;
            for (int b = 0; b < 17; b++)
            {
                int tail = RagdollRig.HumanoidTails[b];
                if (tail < 0) continue;
                SinewVec3 want = PoseMath.Sub(engine[tail].position, engine[b].position);
                SinewVec3 got = PoseMath.Rotate(posed[b].rotation, V(0f, 1f, 0f));
                // atan2(|got x want|, got . want): exact for small angles.
                double cx = got.y * want.z - got.z * want.y, cy = got.z * want.x - got.x * want.z, cz = got.x * want.y - got.y * want.x;
                double dot = got.x * want.x + got.y * want.y + got.z * want.z;
                worstAim = Math.Max(worstAim, (float)Math.Atan2(Math.Sqrt(cx * cx + cy * cy + cz * cz), dot));
            }
            Check(worstAim < 1e-6f, "fitted bones point along the character's (worst " + Degrees(worstAim) + " deg)");

            world.SetRagdollPose(doll, posed);
            var simulated = new SinewTransform[17];
            var back = new SinewTransform[17];
            world.ReadBones(doll, simulated);
            rig.ToEngine(simulated, back);
            float worstTurn = 0f;
            for (int b = 0; b < 17; b++) worstTurn = Math.Max(worstTurn, PoseMath.Angle(back[b].rotation, engine[b].rotation));
            float rootOff = Distance(back[0].position, engine[0].position);
            Console.WriteLine("ragdoll rig: fitted aim " + Degrees(worstAim) + " deg, read back " + Degrees(worstTurn) + " deg, hips " + rootOff + " m off");
            // Measured 1.3e-7 rad aim, 1.9e-7 rad read back, 0 m hips, 1.5e-7 rad as targets: rounding (the bounds were 1e-4).
            Check(worstTurn < 1e-6f, "the character's bones read back through the offsets: no snap (worst " + Degrees(worstTurn) + " deg)");
            Check(rootOff < 1e-6f, "the hips read back where they were (" + rootOff + " m)");

            // The motors hold the T-pose for a second against gravity.
            var targets = new SinewTransform[17];
            rig.ToTargets(engine, targets);
            float worstTarget = 0f;
            for (int b = 0; b < 17; b++) worstTarget = Math.Max(worstTarget, PoseMath.Angle(targets[b].rotation, posed[b].rotation));
            Console.WriteLine("ragdoll rig: targets " + Degrees(worstTarget) + " deg off the fitted pose");
            Check(worstTarget < 1e-6f, "the character's pose as targets is the fitted pose (" + Degrees(worstTarget) + " deg)");
            world.SetRagdollRootMotion(doll, true); // the hips' place is animated too (an opt-in)
            for (int frame = 0; frame < 60; frame++)
            {
                world.SetRagdollMotorTargets(doll, targets);
                world.Step(1f / 60f);
            }
            world.ReadBones(doll, simulated);
            rig.ToEngine(simulated, back);
            worstTurn = 0f;
            for (int b = 0; b < 17; b++) worstTurn = Math.Max(worstTurn, PoseMath.Angle(back[b].rotation, engine[b].rotation));
            rootOff = Distance(back[0].position, engine[0].position);
            Console.WriteLine("ragdoll rig: after 1 s of motors, worst bone " + Degrees(worstTurn) + " deg off, hips " + rootOff + " m off");
            // Measured 0.030 degrees and 1.7e-4 m (the bounds were 0.5 degrees and 1 cm).
            Check(Degrees(worstTurn) < 0.1f, "motors hold the T-pose within 0.1 degrees (" + Degrees(worstTurn) + ")");
            Check(rootOff < 5e-4f, "and the hips within 0.5 mm (" + rootOff + " m)");

            // A missing bone (an avatar without a neck) is not written and follows its parent.
            present[3] = false;
            var rig2 = new RagdollRig(rest, engine, present, posed);
            Check(!rig2.IsPresent(3) && rig2.IsPresent(4), "missing neck");
            rig2.ToTargets(engine, targets);
            var before = back[3];
            rig2.ToEngine(simulated, back);
            Check(Same(back[3].position, before.position) && back[3].rotation.w == before.rotation.w, "a missing bone is left alone");
            bool threw = false;
            try { new RagdollRig(new SinewTransform[3], engine, null, posed); }
            catch (ArgumentException) { threw = true; }
            Check(threw, "a rig of 3 bones is refused");
        }
    }

    // Motors: targets with the left elbow bent 90 degrees forward and the right knee
    // 60 degrees back; after a second the bones are there, a limp doll's are not.
    static void CheckRagdollMotors()
    {
        SinewTransform root = new SinewTransform();
        root.rotation.w = 1f;
        float[] strengths = { 1f, 0f, 0.2f };
        float[] caps = { 0f, 0f, 100f };
        float[] forearmOff = new float[3], handOff = new float[3], shinOff = new float[3], footOff = new float[3], drop = new float[3];
        for (int run = 0; run < 3; run++)
        {
            using (World world = new World())
            {
                SinewBodyId doll = world.CreateHumanoid(root, 1.8f);
                var rest = new SinewTransform[17];
                world.ReadBones(doll, rest);
                var targets = (SinewTransform[])rest.Clone();
                // Elbow: about world -X (the forearm's local +X), the forearm's tail goes forward (+Z).
                Bend(targets, 6, 7, rest[6].position, PoseMath.AxisAngle(V(-1f, 0f, 0f), (float)Math.PI / 2f));
                // Knee: about world +X, the shin's tail goes back (-Z).
                Bend(targets, 15, 16, rest[15].position, PoseMath.AxisAngle(V(1f, 0f, 0f), (float)Math.PI / 3f));
                Check(targets[7].position.z > 0.2f && targets[16].position.z < -0.2f, "the bent pose: hand forward, foot back");
                world.SetRagdollMotorStrength(doll, strengths[run], caps[run]);
                world.SetRagdollRootMotion(doll, true); // the hips' place is animated too (an opt-in)
                world.SetRagdollMotorTargets(doll, targets);
                for (int frame = 0; frame < 60; frame++) world.Step(1f / 60f);
                var bones = new SinewTransform[17];
                world.ReadBones(doll, bones);
                forearmOff[run] = Degrees(PoseMath.Angle(bones[6].rotation, targets[6].rotation));
                shinOff[run] = Degrees(PoseMath.Angle(bones[15].rotation, targets[15].rotation));
                handOff[run] = Distance(bones[7].position, targets[7].position);
                footOff[run] = Distance(bones[16].position, targets[16].position);
                drop[run] = rest[0].position.y - bones[0].position.y;
                Console.WriteLine("ragdoll motors (strength " + strengths[run] + ", max force " + caps[run] + " N): forearm " + forearmOff[run] + " deg, shin " + shinOff[run]
                    + " deg off; hand " + handOff[run] + " m, foot " + footOff[run] + " m off; hips dropped " + drop[run] + " m");

                if (run == 0)
                {
                    // Bad input gives codes and changes nothing.
                    var bad = (SinewTransform[])targets.Clone();
                    bad[3].rotation.x = float.NaN;
                    ExpectCode(() => world.SetRagdollMotorTargets(doll, bad), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "NaN target");
                    bad[3].rotation = new SinewQuat();
                    ExpectCode(() => world.SetRagdollMotorTargets(doll, bad), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "zero rotation target");
                    ExpectCode(() => world.SetRagdollMotorStrength(doll, float.NaN), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "NaN strength");
                    ExpectCode(() => world.SetRagdollMotorStrength(doll, 0.5f, -1f), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "negative max force");
                    ExpectCode(() => world.SetRagdollBoneMotor(doll, 2, 0.5f, 0f, -3f), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "negative max torque");
                    Check(Native.sinew_ragdoll_set_motor_root_motion(world.Pointer, doll, 2u) == SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "root motion 2");
                    Check(Native.sinew_ragdoll_set_motor_targets(world.Pointer, doll, null, 17) == SinewResult.SINEW_RESULT_NULL_ARGUMENT, "NULL targets");
                    SinewBodyId rope = world.CreateParticles(new[] { V(0, 5, 0), V(1, 5, 0) }, null);
                    ExpectCode(() => world.SetRagdollMotorTargets(rope, targets), SinewResult.SINEW_RESULT_WRONG_KIND, "motor targets on particles");
                    ExpectCode(() => world.SetRagdollMotorStrength(rope, 1f), SinewResult.SINEW_RESULT_WRONG_KIND, "motor strength on particles");
                    ulong hash = world.StateHash();
                    world.Step(1f / 60f);
                    world.ReadBones(doll, bones);
                    Console.WriteLine("ragdoll motors: after the refused calls the forearm is " + Degrees(PoseMath.Angle(bones[6].rotation, targets[6].rotation)) + " deg off its target");
                    // Measured 0.019 degrees, where it was before them (the bound was 5).
                    Check(Degrees(PoseMath.Angle(bones[6].rotation, targets[6].rotation)) < 0.06f, "refused calls left the targets as they were");
                    Check(world.StateHash() != hash, "the world still steps");
                    world.DestroyBody(doll);
                    ExpectCode(() => world.SetRagdollMotorTargets(doll, targets), SinewResult.SINEW_RESULT_INVALID_ID, "motor targets on a destroyed ragdoll");
                    ExpectCode(() => world.SetRagdollMotorStrength(doll, 1f), SinewResult.SINEW_RESULT_INVALID_ID, "motor strength on a destroyed ragdoll");
                }
            }
        }
        // Measured 0.019 and 0.0093 degrees; 3.5e-4, 2.2e-4 and 1.7e-4 m (the bounds were 1 degree and 1 cm).
        Check(forearmOff[0] < 0.06f && shinOff[0] < 0.06f, "strength 1: forearm and shin within 0.06 degrees of the bent pose (" + forearmOff[0] + ", " + shinOff[0] + ")");
        Check(handOff[0] < 1e-3f && footOff[0] < 1e-3f && Math.Abs(drop[0]) < 1e-3f, "strength 1: hand, foot and hips within 1 mm (" + handOff[0] + ", " + footOff[0] + ", " + drop[0] + " m)");
        // 0.2 with a 100 N cap: the joints still reach the pose, but 100 N cannot carry 76 kg (745 N), so it falls.
        // Measured 0.10 and 0.024 degrees (the bound was 2).
        Check(forearmOff[2] < 0.3f && shinOff[2] < 0.3f, "strength 0.2: forearm and shin within 0.3 degrees (" + forearmOff[2] + ", " + shinOff[2] + ")");
        Check(drop[2] > 1f, "strength 0.2, 100 N: the capped root drive lets the body fall (" + drop[2] + " m in 1 s)");
        Check(forearmOff[1] > 45f && shinOff[1] > 30f, "strength 0 (limp): the joints stay far from the pose (" + forearmOff[1] + ", " + shinOff[1] + " deg)");
        Console.WriteLine("ragdoll motors checked");
    }

    // Rigid bodies: transform back, impulse, explosion, a convex shape, bad defs.
    static void CheckRigid()
    {
        using (World world = new World())
        {
            ExpectCode(() => world.CreateRigid(default(SinewRigidDef)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "zero rigid def");
            SinewRigidDef def = World.DefaultRigidDef();
            def.transform.position.y = 2f;
            SinewBodyId box = world.CreateRigid(def);
            Check(Math.Abs(world.RigidTransform(box).position.y - 2f) < 1e-6f, "the box where it was made"); // measured 0
            SinewVec3 at = world.RigidTransform(box).position, push = new SinewVec3();
            push.x = 3f;
            world.ApplyRigidImpulse(box, at, push);
            def.shape = Native.SINEW_SHAPE_CONVEX;
            def.model = Native.SINEW_RIGID_SHAPE_MATCHED;
            def.transform.position.x = -10f;
            SinewVec3[] corners = new SinewVec3[4];
            corners[1].x = 0.3f;
            corners[2].y = 0.3f;
            corners[3].z = 0.3f;
            world.CreateRigid(def, corners);
            Check(world.Explode(at, 1f, 3f) == 4, "the explosion pushed the box's four particles");
            for (int frame = 0; frame < 10; frame++) world.Step(1f / 60f);
            Check(world.RigidTransform(box).position.x > 0.1f, "the impulse moved the box");
            ExpectCode(() => world.CreateRigid(def, new SinewVec3[0]), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "no points");
        }
    }

    // Cloth through the default def, strided vertex writes, joints, sleep, wind.
    static void CheckCloth()
    {
        using (World world = new World())
        {
            ExpectCode(() => world.CreateClothGrid(default(SinewClothGridDef)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "zero grid def");
            ExpectCode(() => world.CreateCloth(default(SinewClothMeshDef)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "zero mesh def");

            SinewClothGridDef def = World.DefaultClothGridDef();
            Check(def.pin_flags == Native.SINEW_PIN_TOP_EDGE && def.tether_mode == Native.SINEW_TETHER_EUCLIDEAN, "grid defaults");
            def.columns = 8;
            def.rows = 6;
            def.spacing = 0.1f;
            SinewBodyId cloth = world.CreateClothGrid(def);
            int n = 8 * 6;
            Check(world.ParticleCount(cloth) == n && world.ClothVertexCount(cloth) == n, "grid counts");
            for (int frame = 0; frame < 120; frame++) world.Step(1f / 60f);

            SinewVec3[] positions = new SinewVec3[n];
            SinewVec3[] normals = new SinewVec3[n];
            Check(world.ReadPositions(cloth, positions) == n, "cloth positions");
            Check(world.ReadNormals(cloth, normals) == n, "cloth normals");
            float worstUnit = 0f;
            foreach (SinewVec3 v in normals) worstUnit = Math.Max(worstUnit, Math.Abs(Length(v) - 1f));
            Console.WriteLine("cloth: normals within " + worstUnit.ToString("E2") + " of unit length, bottom y " + positions[n - 1].y.ToString("F3"));
            Check(worstUnit < 5e-7f, "unit normals (" + worstUnit + ")"); // measured 6e-8, an ulp (the bound was 1e-4)
            Check(positions[n - 1].y < -0.45f, "the cloth hangs (" + positions[n - 1].y + ")");
            ExpectCode(() => world.ReadNormals(cloth, new SinewVec3[2]), SinewResult.SINEW_RESULT_BUFFER_TOO_SMALL, "2-slot normals");

            // An interleaved vertex buffer (position, normal: 24 bytes) in a pinned float[].
            float[] interleaved = new float[6 * n];
            GCHandle pin = GCHandle.Alloc(interleaved, GCHandleType.Pinned);
            try
            {
                float* f = (float*)pin.AddrOfPinnedObject();
                Check(world.WriteVertices(cloth, f, 24, f + 3, 24, n) == n, "interleaved write count");
                Check(world.WriteVertices(cloth, null, 12, null, 12, 0) == n, "count query");
                ExpectCode(() => world.WriteVertices(cloth, (void*)pin.AddrOfPinnedObject(), 24, null, 0, n - 1), SinewResult.SINEW_RESULT_BUFFER_TOO_SMALL, "capacity n - 1");
                ExpectCode(() => world.WriteVertices(cloth, (void*)pin.AddrOfPinnedObject(), 8, null, 0, n), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "stride 8");
            }
            finally
            {
                pin.Free();
            }
            bool equal = true;
            for (int k = 0; k < n; k++)
            {
                equal &= Same(V(interleaved[6 * k], interleaved[6 * k + 1], interleaved[6 * k + 2]), positions[k]);
                equal &= Same(V(interleaved[6 * k + 3], interleaved[6 * k + 4], interleaved[6 * k + 5]), normals[k]);
            }
            Check(equal, "the interleaved buffer holds ReadPositions and ReadNormals");
            SinewVec3[] streamP = new SinewVec3[n], streamN = new SinewVec3[n];
            Check(world.WriteVertices(cloth, streamP, streamN) == n && Same(streamP[n - 1], positions[n - 1]) && Same(streamN[0], normals[0]), "separate streams");
            uint[] map = new uint[n];
            Check(world.ReadVertexMap(cloth, map) == n && map[n - 1] == (uint)(n - 1), "a grid's vertex map is the identity");
            SinewVec3 lo, hi;
            world.GetBounds(cloth, out lo, out hi);
            Check(lo.y <= positions[n - 1].y && hi.x >= positions[7].x, "bounds hold the particles");

            // Wind, aerodynamics, collision flags.
            world.SetWind(V(0, 0, 3));
            Check(world.GetDef().wind.z == 3f, "world wind");
            ExpectCode(() => world.SetWind(V(float.NaN, 0, 0)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "NaN wind");
            world.SetClothWind(cloth, V(1, 0, 0));
            world.SetClothAerodynamics(cloth, 1.2f, 0.3f);
            ExpectCode(() => world.SetClothAerodynamics(cloth, -1f, 0f), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "negative drag");
            world.SetClothCollision(cloth, true, false);
            world.SetWind(V(0, 0, 0));

            // A particle joined to the cloth's bottom-right corner, 20 cm below it.
            world.ReadPositions(cloth, positions);
            SinewVec3 corner = positions[n - 1];
            SinewBodyId weight = world.CreateParticles(new[] { V(corner.x, corner.y - 0.2f, corner.z) });
            ExpectCode(() => world.ReadNormals(weight, new SinewVec3[1]), SinewResult.SINEW_RESULT_WRONG_KIND, "normals of particles");
            SinewJointId joint = world.CreateJoint(cloth, n - 1, weight, 0);
            Check(world.IsValid(joint), "joint created");
            ExpectCode(() => world.CreateJoint(cloth, 0, cloth, 0), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "a particle joined to itself");
            ExpectCode(() => world.CreateJoint(cloth, n, weight, 0), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "particle out of range");
            SinewVec3[] one = new SinewVec3[1];
            float worst = 0f;
            for (int frame = 0; frame < 60; frame++)
            {
                world.Step(1f / 60f);
                world.ReadPositions(cloth, positions);
                world.ReadPositions(weight, one);
                worst = Math.Max(worst, Math.Abs(Distance(positions[n - 1], one[0]) - 0.2f));
            }
            Console.WriteLine("joint: largest length error " + worst.ToString("E2") + " m");
            Check(worst < 1e-6f, "the joint keeps 20 cm (" + worst + ")"); // measured 7.5e-8 (the bound was 2e-3)
            world.DestroyJoint(joint);
            Check(!world.IsValid(joint), "destroyed joint is invalid");
            ExpectCode(() => world.DestroyJoint(joint), SinewResult.SINEW_RESULT_INVALID_ID, "stale joint");

            // Sleep.
            world.SetSleeping(cloth, true);
            Check(world.IsSleeping(cloth), "asleep");
            world.SetSleeping(cloth, false);
            Check(!world.IsSleeping(cloth), "awake");
            world.DestroyBody(weight);
            ExpectCode(() => world.IsSleeping(weight), SinewResult.SINEW_RESULT_INVALID_ID, "sleep of a stale body");

            // A mesh with a seam: vertex 4 repeats vertex 2; the top two are pinned.
            SinewVec3[] quad = { V(0, 0, 0), V(1, 0, 0), V(1, -1, 0), V(0, -1, 0), V(1, -1, 0) };
            int[] triangles = { 0, 3, 2, 0, 4, 1 };
            SinewBodyId sheet = world.CreateCloth(World.DefaultClothMeshDef(), quad, triangles, new byte[] { 1, 1, 0, 0, 0 });
            Check(world.ParticleCount(sheet) == 4 && world.ClothVertexCount(sheet) == 5, "welded mesh counts");
            uint[] welded = new uint[5];
            world.ReadVertexMap(sheet, welded);
            Check(welded[4] == welded[2], "the seam welds");
            ExpectCode(() => world.CreateCloth(World.DefaultClothMeshDef(), quad, new[] { 0, 1, 5 }), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "index out of range");
            Console.WriteLine("cloth, joints and sleep checked");
        }
    }

    static SinewTransform T(float x, float y, float z, float qx, float qy, float qz, float qw)
    {
        SinewTransform t;
        t.position = V(x, y, z);
        t.rotation.x = qx;
        t.rotation.y = qy;
        t.rotation.z = qz;
        t.rotation.w = qw;
        return t;
    }

    // Character cloth: particles attached to an engine-moved frame, and a skin
    // with max distances and backstops holding a cloth in strong wind.
    static void CheckCharacter()
    {
        const float dt = 1f / 60f;
        using (World world = new World())
        {
            // An unpinned 6 x 6 grid whose top row is attached to a frame at the origin.
            SinewClothGridDef def = World.DefaultClothGridDef();
            def.columns = 6;
            def.rows = 6;
            def.pin_flags = 0;
            SinewBodyId cape = world.CreateClothGrid(def);
            int n = 36;
            SinewVec3[] rest = new SinewVec3[n], p = new SinewVec3[n];
            world.ReadPositions(cape, rest);
            int[] top = { 0, 1, 2, 3, 4, 5 };
            SinewTransform origin = T(0, 0, 0, 0, 0, 0, 1);
            int frame = world.AttachToFrame(cape, top, origin);
            Check(frame == 0, "first frame index is 0 (" + frame + ")");
            // The frame rises by 10 cm: after one step the top row rose by exactly that.
            world.SetFrame(cape, frame, T(0, 0.1f, 0, 0, 0, 0, 1));
            world.Step(dt);
            world.ReadPositions(cape, p);
            float worst = 0f;
            foreach (int c in top) worst = Math.Max(worst, Distance(p[c], V(rest[c].x, rest[c].y + 0.1f, rest[c].z)));
            Console.WriteLine("frame: attached particles off the moved frame by " + worst.ToString("E2") + " m");
            Check(worst < 1e-5f, "attached particles follow the moved frame (" + worst + ")");
            Check(p[n - 1].y - rest[n - 1].y > 0.09f, "the free rows are dragged along (" + (p[n - 1].y - rest[n - 1].y) + ")");
            // A quarter turn about +Y: (x, y, z) -> (z, y, -x).
            float h = (float)Math.Sqrt(0.5);
            world.SetFrame(cape, frame, T(0, 0.1f, 0, 0, h, 0, h));
            world.Step(dt);
            world.ReadPositions(cape, p);
            worst = 0f;
            foreach (int c in top) worst = Math.Max(worst, Distance(p[c], V(rest[c].z, rest[c].y + 0.1f, -rest[c].x)));
            Console.WriteLine("frame: attached particles off the turned frame by " + worst.ToString("E2") + " m");
            Check(worst < 1e-5f, "attached particles follow the turned frame (" + worst + ")");
            ExpectCode(() => world.SetFrame(cape, 1, origin), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "frame index out of range");
            ExpectCode(() => world.SetFrame(cape, frame, T(0, 0, 0, 0, 0, 0, 0)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "zero quaternion");
            ExpectCode(() => world.AttachToFrame(cape, new[] { n }, origin), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "particle out of range");
            ExpectCode(() => world.AttachToFrame(cape, new[] { -1 }, origin), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "negative particle");
            ExpectCode(() => world.AttachToFrame(cape, top, T(float.NaN, 0, 0, 0, 0, 0, 1)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "NaN frame");
            Check(world.AttachToFrame(cape, new[] { n - 1 }, origin) == 1, "second frame index is 1");

            // A 10 x 10 grid hanging from its top edge, skinned at its rest pose
            // with normals +Z, each particle allowed 5 cm from its skin.
            SinewClothGridDef flagDef = World.DefaultClothGridDef();
            flagDef.columns = 10;
            flagDef.rows = 10;
            flagDef.transform = T(3, 0, 0, 0, 0, 0, 1);
            SinewBodyId flag = world.CreateClothGrid(flagDef);
            int m = world.ClothVertexCount(flag);
            Check(m == 100, "flag vertex count");
            SinewVec3[] skin = new SinewVec3[m], outward = new SinewVec3[m], q = new SinewVec3[m];
            world.ReadPositions(flag, skin);
            for (int k = 0; k < m; k++) outward[k] = V(0, 0, 1);
            float[] maxDistance = new float[m], backstop = new float[m];
            for (int k = 0; k < m; k++) maxDistance[k] = 0.05f;
            ExpectCode(() => world.SetClothMaxDistances(flag, maxDistance), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "max distances before any skin");
            ExpectCode(() => world.SetClothSkin(flag, new SinewVec3[m - 1], new SinewVec3[m - 1]), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "skin of m - 1 vertices");
            ExpectCode(() => world.SetClothSkin(flag, skin, new SinewVec3[m]), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "zero normals");
            world.SetClothSkin(flag, skin, outward);
            ExpectCode(() => world.SetClothMaxDistances(flag, new float[m - 1]), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "m - 1 max distances");
            float[] negative = (float[])maxDistance.Clone();
            negative[3] = -0.01f;
            ExpectCode(() => world.SetClothMaxDistances(flag, negative), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "negative max distance");
            ExpectCode(() => world.SetClothMaxDistances(cape, new float[n]), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "max distances of a cloth without skin");
            SinewBodyId lone = world.CreateParticles(new[] { V(0, 5, 0) });
            ExpectCode(() => world.SetClothSkin(lone, new[] { V(0, 5, 0) }, new[] { V(0, 0, 1) }), SinewResult.SINEW_RESULT_WRONG_KIND, "skin of particles");
            world.SetClothMaxDistances(flag, maxDistance);

            // 30 m/s of wind along +Z for 1 s, the skin set every frame.
            world.SetWind(V(0, 0, 30));
            float farthest = 0f;
            for (int f = 0; f < 60; f++)
            {
                world.SetClothSkin(flag, skin, outward);
                world.Step(dt);
                world.ReadPositions(flag, q);
                for (int k = 0; k < m; k++) farthest = Math.Max(farthest, Distance(q[k], skin[k]));
            }
            Console.WriteLine("skin: farthest particle from its skin in 30 m/s wind over 1 s = " + farthest.ToString("F5") + " m (max distance 0.05)");
            Check(farthest <= 0.05f + 1e-4f, "max distance holds (" + farthest + ")");
            Check(farthest > 0.04f, "the wind pushed the flag to its limit (" + farthest + ")");
            // Wind the other way with backstop 0: nothing goes behind the skin surface.
            world.SetClothMaxDistances(flag, maxDistance, backstop);
            world.SetWind(V(0, 0, -30));
            float behind = 0f;
            farthest = 0f;
            for (int f = 0; f < 60; f++)
            {
                world.SetClothSkin(flag, skin, outward);
                world.Step(dt);
                world.ReadPositions(flag, q);
                for (int k = 0; k < m; k++)
                {
                    behind = Math.Max(behind, skin[k].z - q[k].z);
                    farthest = Math.Max(farthest, Distance(q[k], skin[k]));
                }
            }
            Console.WriteLine("skin: deepest particle behind the skin in -30 m/s wind with backstop 0 = " + behind.ToString("E2") + " m");
            Check(behind <= 1e-4f, "backstop holds (" + behind + ")");
            Check(farthest <= 0.05f + 1e-4f, "max distance holds against the backstop (" + farthest + ")");
            world.SetWind(V(0, 0, 0));
            Console.WriteLine("frames and skin checked");
        }
    }

    static bool SameBody(SinewBodyId a, SinewBodyId b)
    {
        return a.index1 == b.index1 && a.generation == b.generation;
    }

    static bool SameCollider(SinewColliderId a, SinewColliderId b)
    {
        return a.index1 == b.index1 && a.generation == b.generation;
    }

    static bool Near(float a, float b, float tolerance)
    {
        return Math.Abs(a - b) <= tolerance;
    }

    static SinewMaterial M(float friction, float dynamicFriction, float restitution, uint combine)
    {
        SinewMaterial m;
        m.friction = friction;
        m.dynamic_friction = dynamicFriction;
        m.restitution = restitution;
        m.combine = combine;
        return m;
    }

    // Colliders of every shape from defs and arrays (a 2-triangle mesh floor, a
    // heightfield, a hull, a compound), materials, filters, collision sticks,
    // contacts, ray casts, the nearest particle and an impulse at a hit.
    static void CheckShapes()
    {
        // Layouts of the new structs (64-bit: pointers in SinewColliderDef).
        Check(sizeof(SinewMaterial) == 16 && sizeof(SinewCollisionStick) == 12, "material and stick sizes");
        Check(sizeof(SinewContact) == 64 && sizeof(SinewRayHit) == 68, "contact and ray hit sizes");
        Check(sizeof(SinewColliderHit) == 40 && sizeof(SinewParticleHit) == 32, "collider and particle hit sizes");
        Check(sizeof(SinewColliderDef) == (IntPtr.Size == 8 ? 168 : 140), "SinewColliderDef is " + sizeof(SinewColliderDef) + " bytes");
        Check(Marshal.SizeOf(typeof(SinewColliderDef)) == sizeof(SinewColliderDef), "SinewColliderDef (pointer fields) is blittable");
        Check(Marshal.SizeOf(typeof(SinewRayHit)) == sizeof(SinewRayHit), "SinewRayHit is blittable");

        SinewVec3 down = V(0, -1, 0), up = V(0, 1, 0);
        SinewWorldDef settings = World.DefaultDef();
        settings.sleep_speed = 0f; // resting bodies keep reporting contacts
        using (World world = new World(settings))
        {
            SinewColliderDef def = World.DefaultColliderDef();
            Check(def.shape == Native.SINEW_SHAPE_BOX && def.half_extents.x == 0.5f && def.cell_size_z == 1f, "collider def defaults");
            Check(def.material.friction == 0.5f && def.material.dynamic_friction == 0.5f && def.material.restitution == 0f
                  && def.material.combine == Native.SINEW_COMBINE_AVERAGE, "default material");
            Check(def.layer == Native.SINEW_LAYER_DEFAULT && def.mask == Native.SINEW_LAYER_ALL && def.mask == 0xFFFFFFFFu, "default filter");
            ExpectCode(() => world.CreateCollider(default(SinewColliderDef)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "zero collider def");
            SinewColliderDef bad = def;
            bad.shape = 99;
            ExpectCode(() => world.CreateCollider(bad), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "shape 99");
            bad = def;
            bad.material.combine = 9;
            ExpectCode(() => world.CreateCollider(bad), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "combine 9");
            bad = def;
            bad.half_extents.y = float.NaN;
            ExpectCode(() => world.CreateCollider(bad), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "NaN box");
            SinewColliderDef box = def;
            box.transform.position = V(30, 0, 0);
            SinewColliderId boxId = world.CreateCollider(box);
            Check(world.IsValid(boxId), "a box from a def");

            // A mesh floor of two triangles, 4 m square at y = 0.
            SinewVec3[] quad = { V(-2, 0, -2), V(2, 0, -2), V(2, 0, 2), V(-2, 0, 2) };
            int[] tris = { 0, 2, 1, 0, 3, 2 };
            SinewColliderDef floorDef = def;
            floorDef.material = M(0.8f, 0.6f, 0f, Native.SINEW_COMBINE_MAX);
            ExpectCode(() => world.CreateMesh(def, quad, new[] { 0, 1 }), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "2 indices");
            ExpectCode(() => world.CreateMesh(def, quad, new[] { 0, 1, 4 }), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "index out of range");
            ExpectCode(() => world.CreateMesh(def, quad, new int[0]), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "empty mesh");
            SinewColliderId floor = world.CreateMesh(floorDef, quad, tris);
            SinewMaterial got = world.GetColliderMaterial(floor);
            Check(got.friction == 0.8f && got.dynamic_friction == 0.6f && got.restitution == 0f && got.combine == Native.SINEW_COMBINE_MAX, "material back as given");
            world.SetColliderMaterial(floor, M(0.5f, 0.4f, 0.25f, Native.SINEW_COMBINE_MIN));
            got = world.GetColliderMaterial(floor);
            Check(got.dynamic_friction == 0.4f && got.restitution == 0.25f && got.combine == Native.SINEW_COMBINE_MIN, "material changed");
            ExpectCode(() => world.SetColliderMaterial(floor, M(0.5f, 0.4f, 1.5f, 0)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "restitution 1.5");
            ExpectCode(() => world.SetColliderMaterial(floor, M(0.5f, 0.4f, 0f, 9)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "combine 9");
            ExpectCode(() => world.SetColliderMaterial(floor, M(-1f, 0.4f, 0f, 0)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "negative friction");
            Check(world.GetColliderMaterial(floor).restitution == 0.25f, "refusals change nothing");
            world.SetColliderMaterial(floor, M(0.5f, 0.4f, 0f, Native.SINEW_COMBINE_AVERAGE));

            // A heightfield at x = 10, 3 x 3 heights of 0.5 m in a frame 0.5 m
            // down (its surface at y = 0), on layer 4 only.
            SinewColliderDef fieldDef = def;
            fieldDef.transform.position = V(10, -0.5f, 0);
            float[] heights = { 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f };
            ExpectCode(() => world.CreateHeightfield(fieldDef, 1, 9, heights), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "1 column");
            fieldDef.cell_size_x = 0f;
            ExpectCode(() => world.CreateHeightfield(fieldDef, 3, 3, heights), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "zero cell size");
            fieldDef.cell_size_x = 1f;
            bool threw = false;
            try { world.CreateHeightfield(fieldDef, 3, 2, heights); }
            catch (ArgumentException) { threw = true; }
            Check(threw, "heights of another size than columns * rows are refused before the call");
            SinewColliderId field = world.CreateHeightfield(fieldDef, 3, 3, heights);
            world.SetColliderFilter(field, 4, Native.SINEW_LAYER_ALL);

            // A hull at x = -10 whose empty mask lets everything through.
            SinewVec3[] cube = { V(-0.5f, -0.5f, -0.5f), V(0.5f, -0.5f, -0.5f), V(-0.5f, 0.5f, -0.5f), V(0.5f, 0.5f, -0.5f),
                                 V(-0.5f, -0.5f, 0.5f), V(0.5f, -0.5f, 0.5f), V(-0.5f, 0.5f, 0.5f), V(0.5f, 0.5f, 0.5f) };
            SinewColliderDef hullDef = def;
            hullDef.transform.position = V(-10, 0, 0);
            ExpectCode(() => world.CreateConvex(hullDef, new[] { cube[0], cube[1], cube[2] }), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "3-point hull");
            ExpectCode(() => world.CreateConvex(hullDef, new SinewVec3[257]), SinewResult.SINEW_RESULT_LIMIT_EXCEEDED, "257-point hull");
            SinewColliderId hull = world.CreateConvex(hullDef, cube);
            world.SetColliderFilter(hull, Native.SINEW_LAYER_DEFAULT, 0);
            ExpectCode(() => world.SetColliderFilter(default(SinewColliderId), 1, 1), SinewResult.SINEW_RESULT_INVALID_ID, "filter of a null collider");

            // A compound at z = 10: a thin box at local x = -1, a ball at x = +1.
            SinewColliderDef[] parts = { def, def };
            parts[0].transform.position = V(-1, 0, 0);
            parts[0].half_extents = V(0.5f, 0.1f, 0.5f);
            parts[1].shape = Native.SINEW_SHAPE_SPHERE;
            parts[1].transform.position = V(1, 0, 0);
            parts[1].radius = 0.3f;
            SinewColliderDef compoundDef = def;
            compoundDef.transform.position = V(0, 0, 10);
            ExpectCode(() => world.CreateCompound(compoundDef, new SinewColliderDef[0]), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "empty compound");
            ExpectCode(() => world.CreateCompound(compoundDef, new[] { default(SinewColliderDef) }), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "a part without cookie");
            SinewColliderDef nested = compoundDef;
            nested.shape = Native.SINEW_SHAPE_COMPOUND;
            ExpectCode(() => world.CreateCompound(compoundDef, new[] { nested }), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "a nested compound");
            SinewColliderId compound = world.CreateCompound(compoundDef, parts);

            // Two thin bars along z for a rope whose ends lie outside them.
            world.CreateCapsule(V(19.6f, 1, -1), V(19.6f, 1, 1), 0.05f, 0.5f);
            world.CreateCapsule(V(20.4f, 1, -1), V(20.4f, 1, 1), 0.05f, 0.5f);

            SinewBodyId ball = world.CreateParticles(new[] { V(0.3f, 0.5f, 0.2f) });
            SinewBodyId hill = world.CreateParticles(new[] { V(10.5f, 1f, 1.2f) });
            SinewBodyId perch = world.CreateParticles(new[] { V(-1, 1, 10), V(1, 1, 10) });
            SinewBodyId ghost = world.CreateParticles(new[] { V(0.5f, 0.5f, -0.5f) });
            SinewBodyId faller = world.CreateParticles(new[] { V(-10, 1.5f, 0) });
            SinewBodyId rope = world.CreateParticles(new[] { V(19.2f, 1.2f, 0), V(20.8f, 1.2f, 0) });
            world.SetParticleRadius(ball, 0.1f);
            world.SetParticleRadius(hill, 0.1f);
            world.SetParticleRadius(perch, 0.05f);
            SinewDistanceConstraint rod;
            rod.a = 0;
            rod.b = 1;
            rod.rest_length = -1f;
            rod.compliance = 0f;
            world.AddDistanceConstraints(rope, new[] { rod });

            world.SetBodyMaterial(ball, M(1f, 0.9f, 0f, 9)); // a body's combine is ignored
            ExpectCode(() => world.SetBodyMaterial(ball, M(1f, 0.9f, 2f, 0)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "body restitution 2");
            ExpectCode(() => world.SetBodyMaterial(ball, M(float.NaN, 0.9f, 0f, 0)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "NaN body friction");
            world.ClearBodyMaterial(hill);
            ExpectCode(() => world.ClearBodyMaterial(default(SinewBodyId)), SinewResult.SINEW_RESULT_INVALID_ID, "material of a null body");
            world.SetCollisionFilter(ghost, 2, ~1u); // its mask lacks the floor's layer
            ExpectCode(() => world.SetCollisionFilter(default(SinewBodyId), 2, 2), SinewResult.SINEW_RESULT_INVALID_ID, "filter of a null body");

            ulong before = world.StateHash();
            SinewCollisionStick stick;
            stick.a = 0;
            stick.b = 2;
            stick.radius = 0.05f;
            ExpectCode(() => world.AddCollisionSticks(rope, new[] { stick }), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "stick index out of range");
            stick.b = 0;
            ExpectCode(() => world.AddCollisionSticks(rope, new[] { stick }), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "stick with a == b");
            stick.b = 1;
            stick.radius = 0f;
            ExpectCode(() => world.AddCollisionSticks(rope, new[] { stick }), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "zero stick radius");
            ExpectCode(() => world.AddCollisionSticks(rope, null, 1), SinewResult.SINEW_RESULT_NULL_ARGUMENT, "NULL sticks");
            Check(world.StateHash() == before, "refused sticks add nothing");
            stick.radius = 0.05f;
            world.AddCollisionSticks(rope, new[] { stick });

            Check(world.ContactCount() == 0, "no contacts before a step");
            for (int frame = 0; frame < 60; frame++) world.Step(1f / 60f);

            SinewVec3[] one = new SinewVec3[1], two = new SinewVec3[2];
            world.ReadPositions(ball, one);
            float ballY = one[0].y;
            world.ReadPositions(hill, one);
            float hillY = one[0].y;
            world.ReadPositions(perch, two);
            Console.WriteLine("shapes: rest heights mesh " + ballY.ToString("F4") + " (0.1), heightfield " + hillY.ToString("F4")
                              + " (0.1), compound " + two[0].y.ToString("F4") + " (0.15) " + two[1].y.ToString("F4") + " (0.35)");
            Check(Near(ballY, 0.1f, 2e-3f), "a ball of radius 0.1 rests on the mesh floor at y 0.1 (" + ballY + ")");
            Check(Near(hillY, 0.1f, 2e-3f), "and on the heightfield at y 0.1 (" + hillY + ")");
            Check(Near(two[0].y, 0.15f, 2e-3f) && Near(two[1].y, 0.35f, 2e-3f), "on the compound's box and ball (" + two[0].y + ", " + two[1].y + ")");
            world.ReadPositions(rope, two);
            Check(Near(two[0].y, 1.1f, 5e-3f) && Near(two[1].y, 1.1f, 5e-3f), "the rope's stick rests on the bars (" + two[0].y + ")");
            world.ReadPositions(ghost, one);
            Check(one[0].y < -3f, "the ghost fell through the floor (" + one[0].y + ")");
            world.ReadPositions(faller, one);
            Check(one[0].y < -3f, "the hull with an empty mask let a particle through (" + one[0].y + ")");

            // Contacts.
            int n = world.ContactCount();
            Check(n >= 4, "at least 4 contacts (" + n + ")");
            ExpectCode(() => world.ReadContacts(new SinewContact[n - 1]), SinewResult.SINEW_RESULT_BUFFER_TOO_SMALL, "contacts into n - 1 slots");
            SinewContact[] slots = new SinewContact[n + 2];
            Check(world.ReadContacts(slots) == n, "contacts into n + 2 slots");
            SinewContact[] contacts = world.ReadContacts();
            Check(contacts.Length == n, "ReadContacts() holds every contact");
            int seen = 0;
            foreach (SinewContact c in contacts)
            {
                Check(!SameBody(c.body, ghost) && !SameBody(c.body, faller), "no contact of the bodies that fell through");
                if (SameBody(c.body, ball))
                {
                    seen++;
                    Check(SameCollider(c.collider, floor) && c.particle == 0 && c.normal.y > 0.999f && Near(c.point.y, 0f, 2e-3f) && c.speed < 0.5f,
                          "the ball touches the floor at y 0, normal +Y (" + c.point.y + ")");
                }
                else if (SameBody(c.body, hill))
                {
                    seen++;
                    Check(SameCollider(c.collider, field) && Near(c.point.y, 0f, 2e-3f), "the heightfield contact");
                }
                else if (SameBody(c.body, perch))
                {
                    seen++;
                    Check(SameCollider(c.collider, compound), "the compound contacts");
                }
            }
            Check(seen == 4, "4 contacts found (" + seen + ")");

            // Ray casts against bodies.
            SinewRayHit onBall = world.Raycast(V(0.3f, 5, 0.2f), V(0, -2, 0));
            Check(onBall.hit == 1 && SameBody(onBall.body, ball) && onBall.particle_count == 1 && onBall.particle_a == 0 && onBall.weight_a == 1f,
                  "the ray hits the ball's particle");
            Check(Near(onBall.distance, 4.8f, 3e-3f) && onBall.normal.y > 0.999f, "4.8 m to the ball's top (" + onBall.distance + ")");
            Check(world.Raycast(V(0.3f, 5, 0.2f), down, 4f).hit == 0, "a ray too short misses");
            Check(world.Raycast(V(0.3f, 5, 0.2f), down, float.PositiveInfinity, 2).hit == 0, "the ball is not on layer 2");
            ExpectCode(() => world.Raycast(V(0, 0, 0), V(0, 0, 0)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "zero direction");
            ExpectCode(() => world.Raycast(V(float.NaN, 0, 0), down), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "NaN origin");
            ExpectCode(() => world.Raycast(V(0, 0, 0), down, 0f), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "max distance 0");
            SinewRayHit onRope = world.Raycast(V(20, 3, 0), down, 10f);
            Check(onRope.hit == 1 && SameBody(onRope.body, rope) && onRope.particle_count == 2
                  && Near(onRope.weight_a, 0.5f, 1e-3f) && Near(onRope.weight_b, 0.5f, 1e-3f), "the rope's stick, half and half");
            Check(Near(onRope.distance, 1.85f, 6e-3f), "1.85 m to the rope's stick (" + onRope.distance + ")");

            // 1 N s at the rope's middle: 0.5 m/s more for each 1 kg end.
            SinewVec3[] v0 = new SinewVec3[2], v1 = new SinewVec3[2];
            world.ReadVelocities(rope, v0);
            world.ApplyHitImpulse(onRope, V(0, 0, 1));
            world.ReadVelocities(rope, v1);
            Console.WriteLine("hit impulse: the rope's ends gained " + (v1[0].z - v0[0].z).ToString("F4") + " and " + (v1[1].z - v0[1].z).ToString("F4") + " m/s (0.5 each)");
            Check(Near(v1[0].z - v0[0].z, 0.5f, 1e-3f) && Near(v1[1].z - v0[1].z, 0.5f, 1e-3f), "the impulse split by the weights");
            SinewRayHit missed = onRope;
            missed.hit = 0;
            ExpectCode(() => world.ApplyHitImpulse(missed, up), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "impulse at a miss");
            SinewRayHit heavy = onRope;
            heavy.weight_a = 1.5f;
            ExpectCode(() => world.ApplyHitImpulse(heavy, up), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "weight 1.5");
            ExpectCode(() => world.ApplyHitImpulse(onRope, V(float.NaN, 0, 0)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "NaN impulse");

            // Ray casts against colliders.
            SinewColliderHit onFloor = world.RaycastColliders(V(0.3f, 5, 0.2f), down);
            Check(onFloor.hit == 1 && SameCollider(onFloor.collider, floor) && Near(onFloor.distance, 5f, 1e-4f) && Near(onFloor.normal.y, 1f, 1e-5f),
                  "5 m down to the mesh floor (" + onFloor.distance + ")");
            SinewColliderHit below = world.RaycastColliders(V(0.3f, -1, 0.2f), up, 10f);
            Check(below.hit == 1 && Near(below.distance, 1f, 1e-4f) && Near(below.normal.y, -1f, 1e-5f), "the mesh from below, normal facing the ray");
            Check(world.RaycastColliders(V(10.5f, 5, 1.2f), down, 10f, Native.SINEW_LAYER_DEFAULT).hit == 0, "the heightfield is not on layer 1");
            SinewColliderHit onField = world.RaycastColliders(V(10.5f, 5, 1.2f), down, 10f, 4);
            Check(onField.hit == 1 && SameCollider(onField.collider, field) && Near(onField.distance, 5f, 1e-4f), "the heightfield on layer 4");
            SinewColliderHit onPart = world.RaycastColliders(V(1, 5, 10), down);
            Check(onPart.hit == 1 && SameCollider(onPart.collider, compound) && Near(onPart.distance, 4.7f, 1e-4f), "the compound's ball (" + onPart.distance + ")");
            SinewColliderHit onHull = world.RaycastColliders(V(-10, 5, 0), down);
            Check(onHull.hit == 1 && SameCollider(onHull.collider, hull) && Near(onHull.distance, 4.5f, 1e-4f), "the hull's top (" + onHull.distance + ")");
            Check(world.RaycastColliders(V(0.3f, 5, 0.2f), up).hit == 0, "nothing above");
            ExpectCode(() => world.RaycastColliders(V(0, 0, 0), V(0, 0, 0)), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "zero direction (colliders)");

            // The nearest particle.
            SinewParticleHit picked = world.NearestParticle(V(0.3f, 0.5f, 0.2f), 1f);
            Check(picked.hit == 1 && SameBody(picked.body, ball) && picked.particle == 0 && Near(picked.distance, 0.4f, 3e-3f),
                  "the ball is 0.4 m away (" + picked.distance + ")");
            SinewParticleHit right = world.NearestParticle(V(1, 0.2f, 10));
            Check(right.hit == 1 && SameBody(right.body, perch) && right.particle == 1, "the perch's second particle");
            Check(world.NearestParticle(V(0.3f, 0.5f, 0.2f), 0.3f).hit == 0, "none within 0.3 m");
            Check(SameBody(world.NearestParticle(V(0.3f, 0.5f, 0.2f), float.PositiveInfinity, 2).body, ghost), "the only body on layer 2");
            ExpectCode(() => world.NearestParticle(V(0, 0, 0), -1f), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "negative reach");

            world.DestroyBody(rope);
            ExpectCode(() => world.ApplyHitImpulse(onRope, up), SinewResult.SINEW_RESULT_INVALID_ID, "impulse on a destroyed body");
            world.DestroyCollider(floor);
            ExpectCode(() => world.GetColliderMaterial(floor), SinewResult.SINEW_RESULT_INVALID_ID, "material of a destroyed collider");
            Console.WriteLine("shapes, contacts and queries checked");
        }
    }

    static SinewVec3d D(double x, double y, double z)
    {
        SinewVec3d v;
        v.x = x;
        v.y = y;
        v.z = z;
        return v;
    }

    static SinewTransformd Td(double x, double y, double z)
    {
        SinewTransformd t;
        t.position = D(x, y, z);
        t.rotation = default(SinewQuat);
        t.rotation.w = 1f;
        return t;
    }

    // The _d calls: a particle, a rigid box and a humanoid dropped on a box
    // 10 km out rest exactly as at the origin.
    static double[] FarScene(double at)
    {
        using (World world = new World())
        {
            SinewColliderId floor = world.CreateBoxD(Td(at, -0.5, -at), V(4, 0.5f, 4), 0.5f);
            world.CreateSphereD(D(at + 3, 0, -at), 0.5f, 0.5f);
            world.CreateCapsuleD(D(at - 3, 0, -at), D(at - 3, 0, -at + 1), 0.2f, 0.5f);
            world.CreatePlaneD(V(0, 1, 0), -10.0, 0.5f);
            world.CreateColliderD(Native.sinew_default_collider_def(), D(at, -20, -at));
            SinewBodyId body = world.CreateParticlesD(new[] { D(at, 1, -at), D(at + 0.5, 1, -at) });
            world.SetParticleRadius(body, 0.05f);
            world.SetPositionsD(body, 1, new[] { D(at + 0.5, 1.5, -at) });
            SinewTargetd target = default(SinewTargetd);
            target.particle = 0;
            target.compliance = 1e-3f;
            target.position = D(at, 1, -at);
            world.SetTargetsD(body, new[] { target });
            world.ClearTargets(body);
            SinewBodyId humanoid = world.CreateHumanoidD(Td(at + 1, 0, -at), 1.8f);
            using (Skeleton skeleton = world.RagdollSkeleton(humanoid))
            {
                world.CreateRagdollD(skeleton, Td(at - 1.5, 0, -at + 1));
            }
            SinewBodyId rigid = world.CreateRigidD(Native.sinew_default_rigid_def(), D(at + 2, 1, -at + 2));
            SinewClothGridDef grid = Native.sinew_default_cloth_grid_def();
            grid.columns = 3;
            grid.rows = 3;
            SinewBodyId cloth = world.CreateClothGridD(grid, D(at - 2, 2, -at - 2));
            int frame = world.AttachToFrameD(cloth, new[] { 0 }, Td(at - 2, 2, -at - 2));
            world.SetFrameD(cloth, frame, Td(at - 2, 2, -at - 2));
            world.SetColliderTransformD(floor, Td(at, -0.5, -at));
            for (int k = 0; k < 60; k++) world.Step(1f / 60f);
            SinewTransformd[] bones = new SinewTransformd[world.RagdollBoneCount(humanoid)];
            Check(world.ReadBonesD(humanoid, bones) == bones.Length, "ReadBonesD");
            world.SetMotorTargetsD(humanoid, bones);
            ExpectCode(() => world.SetMotorTargetsLocalD(humanoid, new SinewTransformd[2]), SinewResult.SINEW_RESULT_INVALID_ARGUMENT, "SetMotorTargetsLocalD with 2 bones");
            SinewTransformd[] lifted = (SinewTransformd[])bones.Clone();
            for (int b = 0; b < lifted.Length; b++) lifted[b].position.y += 0.01;
            world.SetRagdollPoseD(humanoid, lifted, bones, 1f / 60f);
            world.SetRagdollPoseD(humanoid, bones);
            SinewVec3[] flat = new[] { V(0, 0, 0), V(1, 0, 0), V(0, 0, 1) };
            uint[] tri = new uint[] { 0, 1, 2 };
            SinewBodyId sheet;
            fixed (SinewVec3* fv = flat)
            fixed (uint* ft = tri)
            {
                SinewClothMeshDef mesh = Native.sinew_default_cloth_mesh_def();
                mesh.vertices = fv;
                mesh.vertex_count = 3;
                mesh.indices = ft;
                mesh.triangle_count = 1;
                sheet = world.CreateClothD(mesh, D(at + 5, 1, -at));
            }
            world.SetClothSkinD(sheet, new[] { D(at + 5, 1, -at), D(at + 6, 1, -at), D(at + 5, 1, -at + 1) }, new[] { V(0, 1, 0), V(0, 1, 0), V(0, 1, 0) });
            SinewBoneDef[] two = new[] { Native.sinew_default_bone_def(), Native.sinew_default_bone_def() };
            two[0].length = 0.3f;
            two[1].parent = 0;
            two[1].rest.position = V(0, 0.3f, 0);
            two[1].length = 0.3f;
            fixed (SinewBoneDef* pb = two)
            {
                SinewRagdollDef rd = Native.sinew_default_ragdoll_def();
                rd.bones = pb;
                rd.bone_count = 2;
                SinewBodyId limb = world.CreateRagdollD(rd, D(at - 5, 1, -at));
                Check(world.RagdollBoneCount(limb) == 2, "CreateRagdollD");
            }
            SinewVec3d[] x = new SinewVec3d[2];
            Check(world.ReadPositionsD(body, x) == 2, "ReadPositionsD");
            SinewTransformd r = world.RigidTransformD(rigid);
            Check(world.GetColliderTransformD(floor).position.x == at, "GetColliderTransformD");
            SinewVec3d lo, hi;
            world.GetBoundsD(body, out lo, out hi);
            Check(lo.x <= at + 0.1 && hi.x >= at + 0.4, "GetBoundsD");
            // The _d queries and pushes.
            SinewContactd[] contacts = world.ReadContactsD();
            Check(contacts.Length > 1, "ReadContactsD");
            ExpectCode(() => world.ReadContactsD(new SinewContactd[1]), SinewResult.SINEW_RESULT_BUFFER_TOO_SMALL, "ReadContactsD into 1");
            SinewRayHitd hit = world.RaycastD(D(at, 3, -at), V(0, -1, 0));
            Check(hit.hit == 1 && hit.point.x == at && hit.point.y < 3, "RaycastD");
            world.ApplyHitImpulseD(hit, V(0, 0.5f, 0));
            SinewColliderHitd ground = world.RaycastCollidersD(D(at + 0.25, 3, -at + 3.5), V(0, -1, 0));
            Check(ground.hit == 1 && ground.collider.index1 == floor.index1 && ground.point.x == at + 0.25, "RaycastCollidersD");
            SinewParticleHitd picked = world.NearestParticleD(D(at + 0.5, 1, -at), 1f);
            Check(picked.hit == 1, "NearestParticleD");
            world.ApplyBoneImpulseD(humanoid, 0, bones[0].position, V(0, 0, 1));
            world.ApplyRigidImpulseD(rigid, r.position, V(0, 1, 0));
            Check(world.ExplodeD(D(at, 0.5, -at), 1f, 2f) > 0, "ExplodeD");
            SinewVec3d[] vertices = new SinewVec3d[9];
            SinewVec3[] normals = new SinewVec3[9];
            Check(world.WriteVerticesD(cloth, vertices, normals) == 9, "WriteVerticesD");
            SinewVec3d[] clothX = new SinewVec3d[9];
            world.ReadPositionsD(cloth, clothX);
            Check(vertices[4].x == clothX[4].x && vertices[4].y == clothX[4].y, "WriteVerticesD writes the exact positions");
            world.TeleportD(body, Td(at, 0, -at), Td(at, 0, -at), false);
            Check(world.RecoveryCount() == 0, "no recoveries far out");
            world.ShiftOriginD(D(at, 0, -at));
            return new[] { x[0].y, x[1].y, r.position.y, bones[0].position.y, bones[0].position.x - at,
                           hit.distance, picked.distance, picked.position.y, vertices[8].y };
        }
    }

    static void CheckFar()
    {
        double[] home = FarScene(0), far = FarScene(10000);
        for (int k = 0; k < home.Length; k++)
            Check(home[k] == far[k], "the _d calls 10 km out: " + far[k] + ", at the origin " + home[k]);
        Console.WriteLine("double precision checked: resting height " + far[0].ToString("F9") + " m at the origin and 10 km out");
    }

    static void MakeGarbage()
    {
        World lost = new World();
        lost.CreateParticles(new[] { V(0, 0, 0) });
        lost.Step(1f / 60f);
    }
}
