import { boot } from '../../kit/boot.tsx'
import { ConvertTool } from '../tools/convert.tsx'

boot(() => <ConvertTool />)
