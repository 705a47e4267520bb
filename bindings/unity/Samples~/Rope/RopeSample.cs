// Sample: a rope of particles pinned at this GameObject, drawn with a
// LineRenderer. Add a SinewWorldBehaviour to the scene and this component to
// an object with a LineRenderer. Uses only the World wrapper (Runtime/Core).
using Sinew;
using Sinew.Unity;
using UnityEngine;

[RequireComponent(typeof(LineRenderer))]
public sealed class RopeSample : MonoBehaviour
{
    public SinewWorldBehaviour world;
    [Range(2, 200)] public int particles = 20;
    public float spacing = 0.1f;

    SinewBodyId _rope;
    SinewVec3[] _positions;
    Vector3[] _points;
    LineRenderer _line;

    void Start()
    {
        world = SinewWorldBehaviour.Find(world);
        _positions = new SinewVec3[particles];
        var invMasses = new float[particles];
        var sticks = new SinewDistanceConstraint[particles - 1];
        for (int i = 0; i < particles; i++)
        {
            _positions[i] = SinewWorldBehaviour.ToSinew(transform.position + Vector3.right * spacing * i);
            invMasses[i] = i == 0 ? 0f : 1f;
            if (i > 0)
            {
                sticks[i - 1].a = (uint)(i - 1);
                sticks[i - 1].b = (uint)i;
                sticks[i - 1].rest_length = -1f;
                sticks[i - 1].compliance = 0f;
            }
        }
        _rope = world.World.CreateParticles(_positions, invMasses);
        world.World.AddDistanceConstraints(_rope, sticks);
        _points = new Vector3[particles];
        _line = GetComponent<LineRenderer>();
        _line.positionCount = particles;
    }

    void LateUpdate()
    {
        world.World.ReadPositions(_rope, _positions);
        for (int i = 0; i < _points.Length; i++) _points[i] = SinewWorldBehaviour.ToUnity(_positions[i]);
        _line.SetPositions(_points);
    }
}
