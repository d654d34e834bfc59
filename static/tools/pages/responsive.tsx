import { boot } from '../../kit/boot.tsx'
import { ResponsiveTool } from '../generate/responsive.tsx'

boot(() => <ResponsiveTool />)
