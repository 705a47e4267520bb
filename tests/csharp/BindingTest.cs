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
            case "SinewClothGridDef": return sizeof(SinewClothGridDef);
            case "SinewClothMeshDef": return sizeof(SinewClothMeshDef);
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
            Console.WriteLine("pendulum: largest length error " + worst.ToString("F6") + " m, lowest bob y " + lowest.ToString("F3"));
            Check(worst < 1e-3f, "the pendulum keeps its length within 1 mm (" + worst + ")");
            Check(now[0].x == 0f && now[0].y == 2f, "the pin stays");
            Check(lowest < 1.1f, "the bob swings down through the bottom (lowest y " + lowest + ")");

            SinewVec3[] top = new SinewVec3[1];
            world.ReadPositions(drop, top);
            Console.WriteLine("particle on the sphere: y = " + top[0].y.ToString("F4"));
            Check(Math.Abs(top[0].y - 0.5f) < 1e-2f && Math.Abs(top[0].x - 5f) < 1e-3f, "the particle rests on the sphere's top (y " + top[0].y + ")");
            Check(Distance(top[0], V(5, 0, 0)) >= 0.5f - 1e-3f, "the particle is not inside the sphere");

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
            Check(Distance(top[0], hold.position) < 1e-3f, "the target holds the particle (" + Distance(top[0], hold.position) + " m off)");
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
        CheckRigid();

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
            Check(Math.Abs(bones[0].position.y - 0.95f) < 1e-3f, "pelvis at its rest height");
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
        }
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
            Check(Math.Abs(world.RigidTransform(box).position.y - 2f) < 1e-4f, "the box where it was made");
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
            Check(worstUnit < 1e-4f, "unit normals (" + worstUnit + ")");
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
            Console.WriteLine("joint: largest length error " + worst.ToString("F6") + " m");
            Check(worst < 2e-3f, "the joint keeps 20 cm (" + worst + ")");
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

    static void MakeGarbage()
    {
        World lost = new World();
        lost.CreateParticles(new[] { V(0, 0, 0) });
        lost.Step(1f / 60f);
    }
}
