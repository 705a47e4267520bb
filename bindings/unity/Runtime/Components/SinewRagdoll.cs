// A humanoid ragdoll driven by the animation (an active ragdoll): sinew's
// 17-bone humanoid preset (sinew_ragdoll_create_humanoid), fitted to this
// character as it stands when the component starts (Sinew.RagdollRig: the
// preset's bones are turned to point along the character's and posed there,
// and each bone keeps its bind offset, so nothing snaps). Every frame, after
// the Animator has posed the bones (LateUpdate, execution order 200), the
// animated pose becomes the motor targets (sinew_ragdoll_set_motor_targets)
// and the simulated pose is written back: bone = simulated frame * bind
// offset, rotation for every bone, position for the hips only (the
// character keeps its own bone lengths). `strength` blends from limp (0) to
// following the animation (1) and `maxForce` caps the drive
// (sinew_ragdoll_set_motor_strength); both may change while playing.
//
// Bones come from a humanoid Animator (PresetBones maps sinew's bone order to
// HumanBodyBones; an optional Chest or Neck the avatar lacks is simply not
// written) or from a Transform list in sinew's order. The list's Transforms
// must be animated every frame: the targets are read from them, so a bone
// nothing animates holds whatever pose the ragdoll last gave it.
//
// Left and right: sinew's coordinates are Unity's numbers as they are, and
// sinew's preset, facing +Z, has its `_l` bones at +X. A Unity character
// facing +Z has its left side at -X (Unity is left-handed), so the preset's
// `_l` bones take the avatar's *Right* bones and the `_r` bones its Left
// ones: each sinew bone is driven by the engine bone in its place. The
// preset is mirror-symmetric (same limits on both sides), so only the
// places matter.
//
// The world steps in FixedUpdate (SinewWorldBehaviour); the targets read in
// LateUpdate reach sinew at the next step and are interpolated across its
// substeps. Not compiled or run in Unity here (see README): compiled against
// tests/csharp/UnityStubs.cs; RagdollRig and the World calls run under Mono.
using UnityEngine;

namespace Sinew.Unity
{
    [DefaultExecutionOrder(200)] // after the Animator and ordinary scripts, in LateUpdate
    public sealed class SinewRagdoll : MonoBehaviour
    {
        /// <summary>
        /// The engine bone in the place of each preset bone, in sinew's bone
        /// order (pelvis, spine, chest, neck, head, upper_arm_l, lower_arm_l,
        /// hand_l, upper_arm_r, lower_arm_r, hand_r, upper_leg_l, lower_leg_l,
        /// foot_l, upper_leg_r, lower_leg_r, foot_r): sinew's left is
        /// Unity's right (see the file's comment).
        /// </summary>
        public static readonly HumanBodyBones[] PresetBones =
        {
            HumanBodyBones.Hips, HumanBodyBones.Spine, HumanBodyBones.Chest, HumanBodyBones.Neck, HumanBodyBones.Head,
            HumanBodyBones.RightUpperArm, HumanBodyBones.RightLowerArm, HumanBodyBones.RightHand,
            HumanBodyBones.LeftUpperArm, HumanBodyBones.LeftLowerArm, HumanBodyBones.LeftHand,
            HumanBodyBones.RightUpperLeg, HumanBodyBones.RightLowerLeg, HumanBodyBones.RightFoot,
            HumanBodyBones.LeftUpperLeg, HumanBodyBones.LeftLowerLeg, HumanBodyBones.LeftFoot,
        };

        /// <summary>sinew's pelvis height as a fraction of the preset's height (0.95 m of 1.8 m).</summary>
        const float PelvisFraction = 0.95f / 1.8f;

        public SinewWorldBehaviour world;
        [Tooltip("Humanoid Animator to take the bones from; or leave empty and fill Bones")]
        public Animator animator;
        [Tooltip("One Transform per preset bone, in PresetBones order (entries may be null except the hips)")]
        public Transform[] bones;
        [Tooltip("Sole to top of head, metres; 0 = from the hips' height above this Transform (the feet)")]
        [Min(0f)] public float height = 0f;
        [Tooltip("0 = limp, 1 = follows the animation")]
        [Range(0f, 1f)] public float strength = 1f;
        [Tooltip("Newtons at the bones' tips; 0 = unlimited")]
        [Min(0f)] public float maxForce = 0f;
        [Tooltip("Drive the hips' position and orientation too (off: only the joints, the body falls freely)")]
        public bool rootMotion = false;

        SinewBodyId _body;
        RagdollRig _rig;
        SinewTransform[] _engine, _targets, _simulated;
        float _appliedStrength = -1f, _appliedMaxForce = -1f;
        bool _appliedRootMotion = false;

        /// <summary>The ragdoll's id in the world (null before Start).</summary>
        public SinewBodyId Body
        {
            get { return _body; }
        }

        void Start()
        {
            world = SinewWorldBehaviour.Find(world);
            if (world == null || world.World == null)
            {
                Debug.LogError("SinewRagdoll: no SinewWorldBehaviour in the scene", this);
                enabled = false;
                return;
            }
            if (animator != null && animator.isHuman)
            {
                bones = new Transform[PresetBones.Length];
                for (int i = 0; i < PresetBones.Length; i++) bones[i] = animator.GetBoneTransform(PresetBones[i]);
            }
            if (bones == null || bones.Length != PresetBones.Length || bones[0] == null)
            {
                Debug.LogError("SinewRagdoll: needs a humanoid Animator or " + PresetBones.Length + " bones in PresetBones order, the hips first", this);
                enabled = false;
                return;
            }
            World w = world.World;
            float h = height > 0f ? height : (bones[0].position.y - transform.position.y) / PelvisFraction;
            if (!(h > 0.1f))
            {
                Debug.LogError("SinewRagdoll: the hips are not above this Transform; set height", this);
                enabled = false;
                return;
            }
            _body = w.CreateHumanoid(SinewWorldBehaviour.ToSinew(transform.position, transform.rotation), h);
            int n = w.RagdollBoneCount(_body);
            var rest = new SinewTransform[n];
            w.ReadBones(_body, rest);
            _engine = new SinewTransform[n];
            _targets = new SinewTransform[n];
            _simulated = new SinewTransform[n];
            var present = new bool[n];
            ReadEngine(present);
            _rig = new RagdollRig(rest, _engine, present, _simulated);
            // The preset now stands as the character does, at rest.
            w.SetRagdollPose(_body, _simulated);
        }

        /// <summary>The bones' world transforms into _engine; present[i] = bone i exists.</summary>
        void ReadEngine(bool[] present)
        {
            for (int i = 0; i < _engine.Length; i++)
            {
                if (bones[i] == null) continue;
                if (present != null) present[i] = true;
                _engine[i] = SinewWorldBehaviour.ToSinew(bones[i].position, bones[i].rotation);
            }
        }

        void LateUpdate()
        {
            if (_rig == null || world == null || world.World == null || world.World.IsDisposed) return;
            World w = world.World;
            if (strength != _appliedStrength || maxForce != _appliedMaxForce)
            {
                w.SetRagdollMotorStrength(_body, Mathf.Clamp01(strength), Mathf.Max(0f, maxForce));
                _appliedStrength = strength;
                _appliedMaxForce = maxForce;
            }
            if (rootMotion != _appliedRootMotion)
            {
                w.SetRagdollRootMotion(_body, rootMotion);
                _appliedRootMotion = rootMotion;
            }
            // The Animator has posed the bones: that pose is the motors' target.
            ReadEngine(null);
            _rig.ToTargets(_engine, _targets);
            w.SetRagdollMotorTargets(_body, _targets);
            // The simulated pose back onto the bones: the hips move, the others turn.
            w.ReadBones(_body, _simulated);
            _rig.ToEngine(_simulated, _engine);
            for (int i = 0; i < _engine.Length; i++)
            {
                if (bones[i] == null) continue;
                Quaternion rotation = SinewWorldBehaviour.ToUnity(_engine[i].rotation);
                if (i == 0) bones[i].SetPositionAndRotation(SinewWorldBehaviour.ToUnity(_engine[i].position), rotation);
                else bones[i].rotation = rotation;
            }
        }

        void OnDestroy()
        {
            if (_rig != null && world != null && world.World != null && !world.World.IsDisposed && world.World.IsValid(_body))
                world.World.DestroyBody(_body);
            _rig = null;
        }
    }
}
