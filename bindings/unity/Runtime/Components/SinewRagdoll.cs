// Compiled only with the scripting define SINEW_RAGDOLL: the ragdoll functions
// it calls (sinew_ragdoll_*) are not in sinew.h yet (they come with the ragdoll
// work), and without the guard the Sinew.Unity assembly would not compile.
#if SINEW_RAGDOLL
// A humanoid ragdoll driven by the animation: built with
// sinew_ragdoll_create_humanoid at this character's feet; every frame, after
// the Animator has posed the bones (LateUpdate), that pose becomes the motor
// targets and the simulated pose is written back to the bones. `strength`
// blends from limp (0) to following the animation (1).
//
// Bones come from an Animator's humanoid avatar (PresetBones maps the
// preset's bone order to HumanBodyBones) or from a Transform list filled by
// hand in that order. Written against shared/API.md's ragdoll functions,
// which were being added to sinew.h while this was written: it compiles once
// Native.g.cs is regenerated from a header that has them, and PresetBones
// must be checked against the bone order documented in sinew.h. Not compiled
// or run here (needs Unity).
using UnityEngine;

namespace Sinew.Unity
{
    [DefaultExecutionOrder(200)]
    public sealed unsafe class SinewRagdoll : MonoBehaviour
    {
        /// <summary>The humanoid preset's bones, in sinew's bone order.</summary>
        public static readonly HumanBodyBones[] PresetBones =
        {
            HumanBodyBones.Hips, HumanBodyBones.Spine, HumanBodyBones.Chest, HumanBodyBones.Neck, HumanBodyBones.Head,
            HumanBodyBones.LeftUpperArm, HumanBodyBones.LeftLowerArm, HumanBodyBones.LeftHand,
            HumanBodyBones.RightUpperArm, HumanBodyBones.RightLowerArm, HumanBodyBones.RightHand,
            HumanBodyBones.LeftUpperLeg, HumanBodyBones.LeftLowerLeg, HumanBodyBones.LeftFoot,
            HumanBodyBones.RightUpperLeg, HumanBodyBones.RightLowerLeg, HumanBodyBones.RightFoot,
        };

        public SinewWorldBehaviour world;
        [Tooltip("Humanoid Animator to take the bones from; or leave empty and fill Bones")]
        public Animator animator;
        [Tooltip("One Transform per preset bone, in PresetBones order")]
        public Transform[] bones;
        [Tooltip("Sole to top of head, metres")]
        [Min(0.1f)] public float height = 1.8f;
        [Range(0f, 1f)] public float strength = 1f;
        [Tooltip("Newtons; 0 = unlimited")]
        [Min(0f)] public float maxForce = 0f;

        SinewBodyId _body;
        SinewTransform[] _pose;
        Quaternion[] _offsets; // sinew bone frame -> Unity bone frame, taken at creation
        float _appliedStrength = -1f, _appliedMaxForce = -1f;

        void Start()
        {
            world = SinewWorldBehaviour.Find(world);
            if (animator != null && animator.isHuman)
            {
                bones = new Transform[PresetBones.Length];
                for (int i = 0; i < PresetBones.Length; i++) bones[i] = animator.GetBoneTransform(PresetBones[i]);
            }
            SinewTransform root = SinewWorldBehaviour.ToSinew(transform.position, transform.rotation);
            SinewBodyId body;
            SinewException.Check(Native.sinew_ragdoll_create_humanoid(world.World.Pointer, root, height, &body));
            _body = body;
            uint count;
            SinewException.Check(Native.sinew_ragdoll_bone_count(world.World.Pointer, _body, &count));
            if (bones == null || bones.Length != count)
            {
                Debug.LogError("SinewRagdoll: the preset has " + count + " bones, " + (bones == null ? 0 : bones.Length) + " given", this);
                enabled = false;
                return;
            }
            _pose = new SinewTransform[count];
            _offsets = new Quaternion[count];
            ReadPose();
            for (int i = 0; i < count; i++)
            {
                if (bones[i] == null) continue;
                _offsets[i] = Quaternion.Inverse(SinewWorldBehaviour.ToUnity(_pose[i].rotation)) * bones[i].rotation;
            }
        }

        void ReadPose()
        {
            uint count;
            fixed (SinewTransform* p = _pose)
            {
                SinewException.Check(Native.sinew_ragdoll_read_bones(world.World.Pointer, _body, p, (uint)_pose.Length, &count));
            }
        }

        void LateUpdate()
        {
            if (world == null || world.World == null || _pose == null) return;
            if (strength != _appliedStrength || maxForce != _appliedMaxForce)
            {
                SinewException.Check(Native.sinew_ragdoll_set_motor_strength(world.World.Pointer, _body, strength, maxForce));
                _appliedStrength = strength;
                _appliedMaxForce = maxForce;
            }
            // The Animator has posed the bones: that pose is the motors' target.
            for (int i = 0; i < _pose.Length; i++)
            {
                if (bones[i] == null) continue;
                _pose[i].position = SinewWorldBehaviour.ToSinew(bones[i].position);
                _pose[i].rotation = SinewWorldBehaviour.ToSinew(bones[i].rotation * Quaternion.Inverse(_offsets[i]));
            }
            fixed (SinewTransform* p = _pose)
            {
                SinewException.Check(Native.sinew_ragdoll_set_motor_targets(world.World.Pointer, _body, p, (uint)_pose.Length));
            }
            // Write the simulated pose back: the root bone moves, the others rotate.
            ReadPose();
            for (int i = 0; i < _pose.Length; i++)
            {
                if (bones[i] == null) continue;
                Quaternion rotation = SinewWorldBehaviour.ToUnity(_pose[i].rotation) * _offsets[i];
                if (i == 0) bones[i].SetPositionAndRotation(SinewWorldBehaviour.ToUnity(_pose[i].position), rotation);
                else bones[i].rotation = rotation;
            }
        }

        void OnDestroy()
        {
            if (world != null && world.World != null && !world.World.IsDisposed && world.World.IsValid(_body))
                world.World.DestroyBody(_body);
        }
    }
}
#endif
