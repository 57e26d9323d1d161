! fortran_client.f90 - an ordinary Fortran program calling the Fortran 77 BLAS
! (linked with -lblas), used to prove that libglblas.so works as an LD_PRELOAD
! substitute for it:
!
!   gfortran -O2 fortran_client.f90 -o fortran_client -lblas
!   ./fortran_client                                   # plain run
!   LD_PRELOAD=/abs/libglblas.so ./fortran_client      # glblas answers saxpy_ ... sgemm_
!
! It is the Fortran twin of cblas_client.c: every routine of the glblas drop-in
! contract (saxpy, sdot as a REAL function, sscal, scopy, sswap, sasum as a
! REAL function, sgemv with 'N','t','C', sgemm with every combination of
! 'N','n','T','t','C') on deterministic inputs, printing on stdout
!
!   call <symbol>_ <key>=<value> ...   once per BLAS call, before the call, with
!                                      the keys of the glblas trace line for it
!   val <case-id> <index> <got> <ref> <bound>
!                                      one per output element (float result,
!                                      double reference, fp32 error bound)
!   FAIL <case-id> ...                 for every failed check
!   summary checks=<n> failures=<n>    last line
!
! and ending normally iff every check passed (STOP 1 otherwise).  <index> is
! the element's 0-based offset in its buffer.
!
! Checks: every operand lives in a buffer with G guard slots on each side and
! NaN in every slot the routine may neither read nor write (guards, gaps of
! strided vectors, padding rows of lda > needed); outputs pre-filled with NaN
! where beta = 0 means they must not be read, A/B/x NaN where alpha = 0 means
! they must not be read.  Output elements are compared with a double-precision
! reference; every other slot must be bit-for-bit unchanged.
!
! Error bounds (u = epsilon(1.0)/2 = 2^-24, the unit roundoff of binary32; the
! inputs have at most 24 significant bits so their double copies and double
! products of two of them are exact).  A result that went through j roundings
! is within gamma_j = j*u/(1-j*u) of the exact value relative to the sum of the
! absolute values of its terms, whatever the summation order; we allow
! CS = 2 times j*u (covers gamma_j's denominator and one extra rounding):
!   saxpy  2 * 2u * (|alpha x_i| + |y_i|)           sscal  2 * u * |alpha x_i|
!   sdot   2 * n u * sum|x_i y_i|                   sasum  2 * n u * sum|x_i|
!   sgemm  2 * (k+2) u * (|alpha| sum_l |a_il b_lj| + |beta c_ij|)
!          (k roundings for the dot product, one for alpha, one for beta*C)
!   sgemv  as sgemm with k = length of x            scopy, sswap  exact
! The beta term is dropped when beta = 0, the alpha term when alpha = 0 or
! k = 0; quick returns leave the output bit-for-bit unchanged.

module client
  use, intrinsic :: iso_fortran_env, only: int32, int64, real64
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
  implicit none
  private
  public :: t_saxpy, t_sdot, t_sscal, t_scopy, t_sswap, t_sasum, t_sgemv, t_sgemm, finish

  integer, parameter :: dp = real64
  integer, parameter :: G = 4
  real(dp), parameter :: U = real(epsilon(1.0), dp) / 2.0_dp   ! 2^-24
  real(dp), parameter :: CS = 2.0_dp

  integer :: n_checks = 0, n_fail = 0, n_case = 0
  integer(int64) :: lcg = 20240601_int64

  type buf
    integer :: len = 0
    real, allocatable :: v(:), orig(:)        ! bounds -G : len-1+G, routine gets v(0)
    logical, allocatable :: out(:)            ! 0 : len-1
    real(dp), allocatable :: ref(:), bnd(:)   ! 0 : len-1
  end type buf

  type mat                                    ! column-major rows x cols, leading dim ld
    integer :: rows = 0, cols = 0, ld = 1
    type(buf) :: b
  end type mat

contains

  ! ---- deterministic inputs: k / 2^23, |k| < 2^23 (at most 24 significant bits)
  real function rnd()
    lcg = mod(lcg * 1103515245_int64 + 12345_int64, 2147483648_int64)
    rnd = real(int(ishft(lcg, -7), int32) - 8388608) / 8388608.0
  end function rnd

  real function sentinel()
    sentinel = transfer(int(z'7FC0DEAD', int32), 1.0)
  end function sentinel

  real function qnan()
    qnan = ieee_value(1.0, ieee_quiet_nan)
  end function qnan

  logical function same_bits(a, b)
    real, intent(in) :: a, b
    same_bits = transfer(a, 0_int32) == transfer(b, 0_int32)
  end function same_bits

  ! ---- formatting
  function fi(i) result(s)
    integer, intent(in) :: i
    character(len=:), allocatable :: s
    character(len=32) :: t
    write (t, '(i0)') i
    s = trim(t)
  end function fi

  function fr(x) result(s)
    real, intent(in) :: x
    character(len=:), allocatable :: s
    character(len=32) :: t
    write (t, '(es16.8e2)') x
    s = trim(adjustl(t))
  end function fr

  function fd(x) result(s)
    real(dp), intent(in) :: x
    character(len=:), allocatable :: s
    character(len=40) :: t
    write (t, '(es25.16e3)') x
    s = trim(adjustl(t))
  end function fd

  character function up(c)
    character, intent(in) :: c
    up = c
    if (c >= 'a' .and. c <= 'z') up = achar(iachar(c) - 32)
  end function up

  ! ---- buffers
  subroutine buf_new(b, len)
    type(buf), intent(out) :: b
    integer, intent(in) :: len
    b%len = max(len, 1)
    allocate (b%v(-G:b%len - 1 + G), b%orig(-G:b%len - 1 + G))
    allocate (b%out(0:b%len - 1), b%ref(0:b%len - 1), b%bnd(0:b%len - 1))
    b%v = sentinel()
    b%out = .false.
    b%ref = 0
    b%bnd = 0
  end subroutine buf_new

  subroutine snap(b)
    type(buf), intent(inout) :: b
    b%orig = b%v
  end subroutine snap

  subroutine check_value(cid, idx, got, ref, bnd)
    character(len=*), intent(in) :: cid
    integer, intent(in) :: idx
    real, intent(in) :: got
    real(dp), intent(in) :: ref, bnd
    real(dp) :: err
    n_checks = n_checks + 1
    write (*, '(a)') 'val '//cid//' '//fi(idx)//' '//fr(got)//' '//fd(ref)//' '//fd(bnd)
    err = abs(real(got, dp) - ref)
    if (.not. (err <= bnd)) then   ! also catches NaN
      n_fail = n_fail + 1
      write (*, '(a)') 'FAIL '//cid//' '//fi(idx)//': got '//fr(got)//' ref '//fd(ref)// &
        ' err '//fd(err)//' bound '//fd(bnd)
    end if
  end subroutine check_value

  ! outputs against the reference; everything else bit for bit against the snapshot
  subroutine buf_check(cid, b)
    character(len=*), intent(in) :: cid
    type(buf), intent(in) :: b
    integer :: e
    do e = -G, b%len - 1 + G
      if (e >= 0 .and. e < b%len) then
        if (b%out(e)) then
          call check_value(cid, e, b%v(e), b%ref(e), b%bnd(e))
          cycle
        end if
      end if
      n_checks = n_checks + 1
      if (.not. same_bits(b%v(e), b%orig(e))) then
        n_fail = n_fail + 1
        write (*, '(a)') 'FAIL '//cid//': slot '//fi(e)//' (not an output element) modified: '// &
          fr(b%orig(e))//' -> '//fr(b%v(e))
      end if
    end do
  end subroutine buf_check

  function new_case(routine) result(cid)
    character(len=*), intent(in) :: routine
    character(len=:), allocatable :: cid
    n_case = n_case + 1
    cid = routine//'#'//fi(n_case)
  end function new_case

  ! ---- strided vectors (0-based offset of element i, reference BLAS rule)
  integer function vpos(i, n, inc)
    integer, intent(in) :: i, n, inc
    if (inc >= 0) then
      vpos = i * inc
    else
      vpos = (n - 1 - i) * (-inc)
    end if
  end function vpos

  subroutine vec_new(b, n, inc, nan_fill)
    type(buf), intent(out) :: b
    integer, intent(in) :: n, inc
    logical, intent(in) :: nan_fill
    integer :: i
    if (n > 0) then
      call buf_new(b, 1 + (n - 1) * abs(inc))
    else
      call buf_new(b, 1)
    end if
    do i = 0, n - 1
      if (nan_fill) then
        b%v(vpos(i, n, inc)) = qnan()
      else
        b%v(vpos(i, n, inc)) = rnd()
      end if
    end do
  end subroutine vec_new

  ! ---- column-major matrices, ld = max(1, rows) + ld_extra
  subroutine mat_new(m, rows, cols, ld_extra, nan_fill)
    type(mat), intent(out) :: m
    integer, intent(in) :: rows, cols, ld_extra
    logical, intent(in) :: nan_fill
    integer :: r, c
    m%rows = rows
    m%cols = cols
    m%ld = max(1, rows) + ld_extra
    call buf_new(m%b, m%ld * cols)
    do c = 0, cols - 1
      do r = 0, rows - 1
        if (nan_fill) then
          m%b%v(r + c * m%ld) = qnan()
        else
          m%b%v(r + c * m%ld) = rnd()
        end if
      end do
    end do
  end subroutine mat_new

  real function mel(m, r, c)
    type(mat), intent(in) :: m
    integer, intent(in) :: r, c
    mel = m%b%v(r + c * m%ld)
  end function mel

  ! ---- level 1
  subroutine t_saxpy(n, alpha, incx, incy)
    integer, intent(in) :: n, incx, incy
    real, intent(in) :: alpha
    external :: saxpy
    type(buf) :: x, y
    character(len=:), allocatable :: cid
    integer :: i, px, py
    real(dp) :: ax, yv
    cid = new_case('saxpy')
    call vec_new(x, n, incx, .false.)
    call vec_new(y, n, incy, .false.)
    if (alpha /= 0.0) then
      do i = 0, n - 1
        px = vpos(i, n, incx)
        py = vpos(i, n, incy)
        ax = real(alpha, dp) * real(x%v(px), dp)
        yv = real(y%v(py), dp)
        y%out(py) = .true.
        y%ref(py) = yv + ax
        y%bnd(py) = CS * 2 * U * (abs(ax) + abs(yv))
      end do
    end if
    call snap(x)
    call snap(y)
    write (*, '(a)') 'call saxpy_ n='//fi(n)//' alpha='//fr(alpha)//' incx='//fi(incx)//' incy='//fi(incy)
    call saxpy(n, alpha, x%v(0), incx, y%v(0), incy)
    call buf_check(cid, x)
    call buf_check(cid, y)
  end subroutine t_saxpy

  subroutine t_sdot(n, incx, incy)
    integer, intent(in) :: n, incx, incy
    real, external :: sdot
    type(buf) :: x, y
    character(len=:), allocatable :: cid
    integer :: i
    real(dp) :: ref, mag, p
    real :: got
    cid = new_case('sdot')
    call vec_new(x, n, incx, .false.)
    call vec_new(y, n, incy, .false.)
    ref = 0
    mag = 0
    do i = 0, n - 1
      p = real(x%v(vpos(i, n, incx)), dp) * real(y%v(vpos(i, n, incy)), dp)
      ref = ref + p
      mag = mag + abs(p)
    end do
    call snap(x)
    call snap(y)
    write (*, '(a)') 'call sdot_ n='//fi(n)//' incx='//fi(incx)//' incy='//fi(incy)
    got = sdot(n, x%v(0), incx, y%v(0), incy)
    call check_value(cid, 0, got, ref, CS * max(n, 1) * U * mag)
    call buf_check(cid, x)
    call buf_check(cid, y)
  end subroutine t_sdot

  subroutine t_sscal(n, alpha, incx)
    integer, intent(in) :: n, incx
    real, intent(in) :: alpha
    external :: sscal
    type(buf) :: x
    character(len=:), allocatable :: cid
    integer :: i, px
    real(dp) :: r
    cid = new_case('sscal')
    call vec_new(x, n, incx, .false.)
    if (incx > 0) then   ! incx <= 0: quick return, x untouched
      do i = 0, n - 1
        px = vpos(i, n, incx)
        r = real(alpha, dp) * real(x%v(px), dp)
        x%out(px) = .true.
        x%ref(px) = r
        x%bnd(px) = CS * U * abs(r)
      end do
    end if
    call snap(x)
    write (*, '(a)') 'call sscal_ n='//fi(n)//' alpha='//fr(alpha)//' incx='//fi(incx)
    call sscal(n, alpha, x%v(0), incx)
    call buf_check(cid, x)
  end subroutine t_sscal

  subroutine t_scopy(n, incx, incy)
    integer, intent(in) :: n, incx, incy
    external :: scopy
    type(buf) :: x, y
    character(len=:), allocatable :: cid
    integer :: i, py
    cid = new_case('scopy')
    call vec_new(x, n, incx, .false.)
    call vec_new(y, n, incy, .false.)
    do i = 0, n - 1
      py = vpos(i, n, incy)
      y%out(py) = .true.
      y%ref(py) = real(x%v(vpos(i, n, incx)), dp)
      y%bnd(py) = 0
    end do
    call snap(x)
    call snap(y)
    write (*, '(a)') 'call scopy_ n='//fi(n)//' incx='//fi(incx)//' incy='//fi(incy)
    call scopy(n, x%v(0), incx, y%v(0), incy)
    call buf_check(cid, x)
    call buf_check(cid, y)
  end subroutine t_scopy

  subroutine t_sswap(n, incx, incy)
    integer, intent(in) :: n, incx, incy
    external :: sswap
    type(buf) :: x, y
    character(len=:), allocatable :: cid
    integer :: i, px, py
    cid = new_case('sswap')
    call vec_new(x, n, incx, .false.)
    call vec_new(y, n, incy, .false.)
    do i = 0, n - 1
      px = vpos(i, n, incx)
      py = vpos(i, n, incy)
      x%out(px) = .true.
      y%out(py) = .true.
      x%ref(px) = real(y%v(py), dp)
      y%ref(py) = real(x%v(px), dp)
      x%bnd(px) = 0
      y%bnd(py) = 0
    end do
    call snap(x)
    call snap(y)
    write (*, '(a)') 'call sswap_ n='//fi(n)//' incx='//fi(incx)//' incy='//fi(incy)
    call sswap(n, x%v(0), incx, y%v(0), incy)
    call buf_check(cid//'.x', x)
    call buf_check(cid//'.y', y)
  end subroutine t_sswap

  subroutine t_sasum(n, incx)
    integer, intent(in) :: n, incx
    real, external :: sasum
    type(buf) :: x
    character(len=:), allocatable :: cid
    integer :: i
    real(dp) :: ref
    real :: got
    cid = new_case('sasum')
    call vec_new(x, n, incx, .false.)
    ref = 0
    if (incx > 0) then   ! incx <= 0: returns 0
      do i = 0, n - 1
        ref = ref + abs(real(x%v(vpos(i, n, incx)), dp))
      end do
    end if
    call snap(x)
    write (*, '(a)') 'call sasum_ n='//fi(n)//' incx='//fi(incx)
    got = sasum(n, x%v(0), incx)
    call check_value(cid, 0, got, ref, CS * max(n, 1) * U * ref)
    call buf_check(cid, x)
  end subroutine t_sasum

  ! ---- sgemv: y = alpha*op(A)*x + beta*y, A m x n with lda = max(1,m) + ld_extra
  subroutine t_sgemv(trans, m, n, ld_extra, incx, incy, alpha, beta, nan_y, nan_ax)
    character, intent(in) :: trans
    integer, intent(in) :: m, n, ld_extra, incx, incy
    real, intent(in) :: alpha, beta
    logical, intent(in) :: nan_y, nan_ax
    external :: sgemv
    type(mat) :: a
    type(buf) :: x, y
    character(len=:), allocatable :: cid
    logical :: notrans, quick
    integer :: lenx, leny, i, j, py
    real(dp) :: s, mag, p, r, bnd, by
    cid = new_case('sgemv')
    notrans = up(trans) == 'N'
    call mat_new(a, m, n, ld_extra, nan_ax)
    if (notrans) then
      lenx = n
      leny = m
    else
      lenx = m
      leny = n
    end if
    call vec_new(x, lenx, incx, nan_ax)
    call vec_new(y, leny, incy, nan_y)
    quick = m == 0 .or. n == 0 .or. (alpha == 0.0 .and. beta == 1.0)
    if (.not. quick) then
      do i = 0, leny - 1
        s = 0
        mag = 0
        if (alpha /= 0.0) then
          do j = 0, lenx - 1
            if (notrans) then
              p = real(mel(a, i, j), dp) * real(x%v(vpos(j, lenx, incx)), dp)
            else
              p = real(mel(a, j, i), dp) * real(x%v(vpos(j, lenx, incx)), dp)
            end if
            s = s + p
            mag = mag + abs(p)
          end do
        end if
        py = vpos(i, leny, incy)
        r = real(alpha, dp) * s
        bnd = abs(real(alpha, dp)) * mag
        if (beta /= 0.0) then
          by = real(beta, dp) * real(y%v(py), dp)
          r = r + by
          bnd = bnd + abs(by)
        end if
        y%out(py) = .true.
        y%ref(py) = r
        y%bnd(py) = CS * (lenx + 2) * U * bnd
      end do
    end if
    call snap(a%b)
    call snap(x)
    call snap(y)
    write (*, '(a)') 'call sgemv_ trans='//up(trans)//' m='//fi(m)//' n='//fi(n)//' alpha='//fr(alpha)// &
      ' lda='//fi(a%ld)//' incx='//fi(incx)//' beta='//fr(beta)//' incy='//fi(incy)
    call sgemv(trans, m, n, alpha, a%b%v(0), a%ld, x%v(0), incx, beta, y%v(0), incy)
    call buf_check(cid, a%b)
    call buf_check(cid, x)
    call buf_check(cid, y)
  end subroutine t_sgemv

  ! ---- sgemm: C = alpha*op(A)*op(B) + beta*C, ld = minimum + extra per operand
  subroutine t_sgemm(ta, tb, m, n, k, lda_extra, ldb_extra, ldc_extra, alpha, beta, nan_c, nan_ab)
    character, intent(in) :: ta, tb
    integer, intent(in) :: m, n, k, lda_extra, ldb_extra, ldc_extra
    real, intent(in) :: alpha, beta
    logical, intent(in) :: nan_c, nan_ab
    external :: sgemm
    type(mat) :: a, b, c
    character(len=:), allocatable :: cid
    logical :: na, nb, quick
    integer :: i, j, l, pc
    real(dp) :: s, mag, av, bv, r, bnd, bc
    cid = new_case('sgemm')
    na = up(ta) == 'N'
    nb = up(tb) == 'N'
    if (na) then
      call mat_new(a, m, k, lda_extra, nan_ab)
    else
      call mat_new(a, k, m, lda_extra, nan_ab)
    end if
    if (nb) then
      call mat_new(b, k, n, ldb_extra, nan_ab)
    else
      call mat_new(b, n, k, ldb_extra, nan_ab)
    end if
    call mat_new(c, m, n, ldc_extra, nan_c)
    quick = m == 0 .or. n == 0 .or. ((alpha == 0.0 .or. k == 0) .and. beta == 1.0)
    if (.not. quick) then
      do j = 0, n - 1
        do i = 0, m - 1
          s = 0
          mag = 0
          if (alpha /= 0.0) then
            do l = 0, k - 1
              if (na) then
                av = real(mel(a, i, l), dp)
              else
                av = real(mel(a, l, i), dp)
              end if
              if (nb) then
                bv = real(mel(b, l, j), dp)
              else
                bv = real(mel(b, j, l), dp)
              end if
              s = s + av * bv
              mag = mag + abs(av * bv)
            end do
          end if
          pc = i + j * c%ld
          r = real(alpha, dp) * s
          bnd = abs(real(alpha, dp)) * mag
          if (beta /= 0.0) then
            bc = real(beta, dp) * real(c%b%v(pc), dp)
            r = r + bc
            bnd = bnd + abs(bc)
          end if
          c%b%out(pc) = .true.
          c%b%ref(pc) = r
          c%b%bnd(pc) = CS * (k + 2) * U * bnd
        end do
      end do
    end if
    call snap(a%b)
    call snap(b%b)
    call snap(c%b)
    write (*, '(a)') 'call sgemm_ transa='//up(ta)//' transb='//up(tb)//' m='//fi(m)//' n='//fi(n)// &
      ' k='//fi(k)//' alpha='//fr(alpha)//' lda='//fi(a%ld)//' ldb='//fi(b%ld)//' beta='//fr(beta)// &
      ' ldc='//fi(c%ld)
    call sgemm(ta, tb, m, n, k, alpha, a%b%v(0), a%ld, b%b%v(0), b%ld, beta, c%b%v(0), c%ld)
    call buf_check(cid, a%b)
    call buf_check(cid, b%b)
    call buf_check(cid, c%b)
  end subroutine t_sgemm

  subroutine finish()
    write (*, '(a)') 'summary checks='//fi(n_checks)//' failures='//fi(n_fail)
    flush (6)
    if (n_fail /= 0) stop 1
  end subroutine finish

end module client

program fortran_client
  use client
  implicit none
  character, parameter :: gv(3) = ['N', 't', 'C']
  character, parameter :: gm(5) = ['N', 'n', 'T', 't', 'C']
  real, parameter :: alphas(5) = [0.8, -1.25, 1.0, 2.0, -0.35]
  real, parameter :: betas(4) = [0.0, 1.0, -0.6, 0.5]
  integer :: t, ia, ib, q
  real :: be

  ! saxpy: quick returns (n = 0, n < 0, alpha = 0), alpha = 1 / other,
  ! unit, non-unit, negative and zero (broadcast x) increments
  call t_saxpy(0, 1.5, 1, 1)
  call t_saxpy(-3, 1.5, 1, 1)
  call t_saxpy(17, 0.0, 1, 1)
  call t_saxpy(17, 1.0, 1, 1)
  call t_saxpy(33, -0.7, 1, 1)
  call t_saxpy(20, 2.5, 2, 3)
  call t_saxpy(15, 1.25, -2, 1)
  call t_saxpy(15, -3.0, 1, -3)
  call t_saxpy(16, 0.5, -1, -2)
  call t_saxpy(9, 0.75, 0, 1)
  call t_saxpy(1000, 0.3, 1, 1)

  ! sdot (REAL function)
  call t_sdot(0, 1, 1)
  call t_sdot(-2, 1, 1)
  call t_sdot(1, 1, 1)
  call t_sdot(37, 1, 1)
  call t_sdot(25, 2, -3)
  call t_sdot(19, -1, -1)
  call t_sdot(13, -2, 3)
  call t_sdot(10, 0, 1)
  call t_sdot(1000, 1, 1)

  ! sscal: n = 0 and incx <= 0 are quick returns
  call t_sscal(0, 2.0, 1)
  call t_sscal(12, 2.0, 0)
  call t_sscal(12, 2.0, -1)
  call t_sscal(21, 0.0, 1)
  call t_sscal(21, 1.0, 1)
  call t_sscal(23, -1.75, 1)
  call t_sscal(14, 0.3, 3)
  call t_sscal(1000, -0.6, 1)

  ! scopy, sswap (exact)
  call t_scopy(0, 1, 1)
  call t_scopy(1, 1, 1)
  call t_scopy(31, 1, 1)
  call t_scopy(18, 2, -1)
  call t_scopy(18, -3, 2)
  call t_scopy(11, -1, -1)
  call t_scopy(7, 0, 1)
  call t_scopy(1000, 1, 1)
  call t_sswap(0, 1, 1)
  call t_sswap(1, 1, 1)
  call t_sswap(50, 1, 1)
  call t_sswap(22, 2, -3)
  call t_sswap(22, -1, 1)
  call t_sswap(13, -2, -2)
  call t_sswap(1000, 1, 1)

  ! sasum (REAL function): n = 0 and incx <= 0 return 0
  call t_sasum(0, 1)
  call t_sasum(12, 0)
  call t_sasum(12, -1)
  call t_sasum(1, 1)
  call t_sasum(37, 1)
  call t_sasum(29, 3)
  call t_sasum(1000, 1)

  ! sgemv with 'N', 't', 'C': padded lda, negative increments,
  ! beta = other / 1 / 0 (y pre-filled with NaN)
  do t = 1, 3
    call t_sgemv(gv(t), 37, 29, 3, 1, 1, 0.75, 0.5, .false., .false.)
    call t_sgemv(gv(t), 37, 29, 0, -2, 3, -1.25, 1.0, .false., .false.)
    call t_sgemv(gv(t), 37, 29, 5, 2, -1, 1.0, 0.0, .true., .false.)
  end do
  call t_sgemv('n', 19, 23, 2, -1, -1, 0.6, -0.4, .false., .false.)
  call t_sgemv('T', 23, 19, 1, 3, 2, -0.6, 0.0, .true., .false.)
  call t_sgemv('c', 11, 12, 0, 1, 1, 1.3, 2.0, .false., .false.)
  ! alpha = 0: y = beta*y without reading A or x (NaN there)
  call t_sgemv('N', 13, 7, 1, 1, 1, 0.0, -1.5, .false., .true.)
  call t_sgemv('t', 13, 7, 0, 1, -1, 0.0, 0.0, .true., .true.)
  ! quick returns: alpha = 0 with beta = 1, m = 0, n = 0 (y untouched)
  call t_sgemv('t', 13, 7, 0, 1, 1, 0.0, 1.0, .false., .true.)
  call t_sgemv('T', 0, 5, 0, 1, 1, 1.0, 2.0, .false., .false.)
  call t_sgemv('N', 6, 0, 0, 1, 1, 1.0, 2.0, .false., .false.)
  ! 1 x 1 and a larger one
  call t_sgemv('N', 1, 1, 0, 1, 1, 2.0, 0.5, .false., .false.)
  call t_sgemv('N', 300, 257, 2, 1, 1, 1.0, 0.0, .true., .false.)

  ! sgemm with every combination of 'N','n','T','t','C' (m = 37, n = 29, k = 45,
  ! padded lda/ldb/ldc, alpha and beta cycling; beta = 0 with C pre-filled with NaN)
  q = 0
  do ia = 1, 5
    do ib = 1, 5
      q = q + 1
      be = betas(mod(q - 1, 4) + 1)
      call t_sgemm(gm(ia), gm(ib), 37, 29, 45, mod(q, 3), mod(q, 2) * 3, mod(q, 4), &
                   alphas(mod(q - 1, 5) + 1), be, be == 0.0, .false.)
    end do
  end do
  ! 1 x 1 x 1
  call t_sgemm('N', 'N', 1, 1, 1, 0, 0, 0, 1.5, 0.25, .false., .false.)
  call t_sgemm('t', 'C', 1, 1, 1, 1, 1, 1, -2.0, 0.0, .true., .false.)
  ! k = 0: C = beta*C
  call t_sgemm('N', 'N', 7, 5, 0, 0, 0, 1, 2.0, 0.5, .false., .false.)
  call t_sgemm('T', 'n', 6, 9, 0, 0, 0, 0, 1.0, 0.0, .true., .false.)
  ! alpha = 0: C = beta*C without reading A or B (NaN there)
  call t_sgemm('T', 'N', 13, 11, 17, 1, 2, 3, 0.0, -1.5, .false., .true.)
  call t_sgemm('n', 'N', 9, 8, 7, 0, 0, 0, 0.0, 0.0, .true., .true.)
  ! quick returns: m = 0, n = 0, alpha = 0 with beta = 1 (C untouched)
  call t_sgemm('N', 'N', 0, 5, 3, 0, 0, 0, 1.0, 2.0, .false., .false.)
  call t_sgemm('T', 'T', 4, 0, 3, 0, 0, 0, 1.0, 2.0, .false., .false.)
  call t_sgemm('N', 'T', 5, 6, 7, 0, 0, 0, 0.0, 1.0, .false., .true.)
  ! larger ones (several tiles on a GPU)
  call t_sgemm('N', 'T', 130, 97, 70, 3, 0, 5, 1.0, 0.0, .true., .false.)
  call t_sgemm('T', 'n', 65, 129, 66, 0, 1, 0, 0.5, 1.0, .false., .false.)

  call finish()
end program fortran_client
