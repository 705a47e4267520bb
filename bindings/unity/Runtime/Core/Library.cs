// Library-wide calls and the exception the World wrapper throws. Plain C#
// 7.3 without UnityEngine (compiled under Mono by tests/csharp_binding.rs).
using System;
using System.Text;

namespace Sinew
{
    /// <summary>Version and error text of the loaded native library.</summary>
    public static unsafe class Library
    {
        /// <summary>The ABI version of the loaded library.</summary>
        public static uint AbiVersion
        {
            get { return Native.sinew_abi_version(); }
        }

        /// <summary>
        /// Throws when the loaded library does not match the bindings
        /// (<see cref="Native.SINEW_ABI_VERSION"/>); call once at start-up.
        /// </summary>
        public static void CheckAbi()
        {
            uint loaded = Native.sinew_abi_version();
            if (loaded != Native.SINEW_ABI_VERSION)
            {
                throw new InvalidOperationException(
                    "sinew: the native library has ABI " + loaded + ", these bindings expect " + Native.SINEW_ABI_VERSION);
            }
        }

        /// <summary>The C name of a result code, e.g. "SINEW_RESULT_INVALID_ID".</summary>
        public static string ResultName(SinewResult result)
        {
            byte* text = Native.sinew_result_name(result);
            int length = 0;
            while (text[length] != 0) length++;
            return Encoding.UTF8.GetString(text, length);
        }

        /// <summary>
        /// The message of the last failed sinew call on this thread ("" before
        /// any). Read it right after the failure, on the same thread.
        /// </summary>
        public static string LastErrorMessage()
        {
            int length = (int)(uint)Native.sinew_last_error_message(null, UIntPtr.Zero);
            if (length == 0) return string.Empty;
            byte[] buffer = new byte[length + 1];
            fixed (byte* p = buffer)
            {
                Native.sinew_last_error_message(p, new UIntPtr((uint)buffer.Length));
            }
            return Encoding.UTF8.GetString(buffer, 0, length);
        }
    }

    /// <summary>A sinew call failed: its code and sinew's message.</summary>
    public sealed class SinewException : Exception
    {
        /// <summary>The code the C function returned.</summary>
        public SinewResult Result { get; private set; }

        /// <summary>sinew's message (without the code's name).</summary>
        public string NativeMessage { get; private set; }

        public SinewException(SinewResult result, string message)
            : base(Library.ResultName(result) + ": " + message)
        {
            Result = result;
            NativeMessage = message;
        }

        /// <summary>Throws for any code but SINEW_RESULT_OK.</summary>
        public static void Check(SinewResult result)
        {
            if (result != SinewResult.SINEW_RESULT_OK)
            {
                throw new SinewException(result, Library.LastErrorMessage());
            }
        }
    }
}
